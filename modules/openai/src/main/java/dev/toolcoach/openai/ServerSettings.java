package dev.toolcoach.openai;

import com.typesafe.config.Config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * How the OpenAI-compatible server listens.
 *
 * @param host                     interface to bind; loopback by default so a model is never exposed by accident
 * @param port                     TCP port, 0 for any free one
 * @param apiKey                   bearer key clients must send on every endpoint, empty for none (loopback only then)
 * @param maxConcurrentGenerations generations run at once; further requests get 429 with Retry-After
 */
public record ServerSettings(String host, int port, String apiKey, int maxConcurrentGenerations) {
    public ServerSettings {
        if (port < 0 || port > 65535) throw new IllegalArgumentException("port out of range: " + port);
        if (maxConcurrentGenerations < 1) {
            throw new IllegalArgumentException("max concurrent generations must be >= 1: " + maxConcurrentGenerations);
        }
        apiKey = apiKey == null ? "" : apiKey;
    }

    /** Loopback on the given port (0: any free port), no key, four generations at once. */
    public static ServerSettings loopback(int port) {
        return new ServerSettings("127.0.0.1", port, "", 4);
    }

    /** Whether {@code host} is a loopback address, reachable only from this machine. */
    public boolean loopback() {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /**
     * Refuses to expose a model to the network without a key: off loopback anyone who can reach the port could
     * run generations on this machine.
     *
     * @throws IllegalArgumentException when the host is not loopback and there is no API key
     */
    public void checkExposure() {
        if (apiKey.isEmpty() && !loopback()) {
            throw new IllegalArgumentException("refusing to serve on " + host + " without an API key: set --api-key, "
                    + "TOOLCOACH_SERVE_API_KEY or toolcoach.openai.server.api-key, or bind to 127.0.0.1");
        }
    }

    /** Reads {@code toolcoach.openai.server} (see reference.conf). */
    public static ServerSettings fromConfig(Config root) {
        Config c = root.getConfig("toolcoach.openai.server");
        return new ServerSettings(c.getString("host"), c.getInt("port"), c.getString("api-key"),
                c.getInt("max-concurrent-generations"));
    }

    public ServerSettings withApiKey(String key) {
        return new ServerSettings(host, port, key, maxConcurrentGenerations);
    }

    public ServerSettings withHost(String h) {
        return new ServerSettings(h, port, apiKey, maxConcurrentGenerations);
    }

    public ServerSettings withPort(int p) {
        return new ServerSettings(host, p, apiKey, maxConcurrentGenerations);
    }

    public ServerSettings withMaxConcurrentGenerations(int n) {
        return new ServerSettings(host, port, apiKey, n);
    }

    @Override
    public String toString() {
        return "ServerSettings[host=" + host + ", port=" + port + ", apiKey=" + (apiKey.isEmpty() ? "none" : "***")
                + ", maxConcurrentGenerations=" + maxConcurrentGenerations + "]";
    }
}
