package dev.toolcoach.openai.http;

import com.typesafe.config.Config;

import java.time.Duration;

/**
 * What one client may hold of a ToolCoach HTTP server ({@code serve}, a node's management port), so that slow or
 * piled-up connections cannot starve the others ({@code toolcoach.http}).
 *
 * @param maxConnections           connections open at once
 * @param maxConnectionsPerAddress connections open at once from one client address
 * @param headTimeout              time a connection with no request in progress has to send a whole request head
 *                                 (a new connection, or a kept-alive one between requests); then it is closed
 * @param bodyTimeout              time a request has to send its whole body once its head arrived (408 after)
 */
public record ConnectionLimits(int maxConnections, int maxConnectionsPerAddress, Duration headTimeout, Duration bodyTimeout) {

    public ConnectionLimits {
        if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("toolcoach.http: max-connections and max-connections-per-address must be at least 1");
        }
        if (maxConnectionsPerAddress > maxConnections) {
            throw new IllegalArgumentException("toolcoach.http: max-connections-per-address must not exceed max-connections");
        }
        if (headTimeout.isNegative() || headTimeout.isZero() || bodyTimeout.isNegative() || bodyTimeout.isZero()) {
            throw new IllegalArgumentException("toolcoach.http: head-timeout and body-timeout must be positive");
        }
    }

    /** Reads {@code toolcoach.http} (see reference.conf). */
    public static ConnectionLimits fromConfig(Config root) {
        Config c = root.getConfig("toolcoach.http");
        return new ConnectionLimits(c.getInt("max-connections"), c.getInt("max-connections-per-address"),
                c.getDuration("head-timeout"), c.getDuration("body-timeout"));
    }
}
