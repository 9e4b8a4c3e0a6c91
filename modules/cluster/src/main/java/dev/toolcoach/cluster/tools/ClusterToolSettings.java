package dev.toolcoach.cluster.tools;

import com.typesafe.config.Config;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits of the athlete side of the tool protocol ({@code toolcoach.tools.client}).
 *
 * @param callDeadline   how long a turn's calls may take end to end before they become TIMEOUT results
 * @param connectTimeout how long {@link ClusterToolEnvironment#connect} waits for a server and the specs of every suite
 */
public record ClusterToolSettings(Duration callDeadline, Duration connectTimeout) {

    public ClusterToolSettings {
        Objects.requireNonNull(callDeadline, "callDeadline");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (callDeadline.isNegative() || callDeadline.isZero()) throw new IllegalArgumentException("callDeadline must be positive");
        if (connectTimeout.isNegative() || connectTimeout.isZero()) throw new IllegalArgumentException("connectTimeout must be positive");
    }

    public static ClusterToolSettings fromConfig(Config config) {
        return new ClusterToolSettings(config.getDuration("toolcoach.tools.client.call-deadline"),
                config.getDuration("toolcoach.tools.client.connect-timeout"));
    }
}
