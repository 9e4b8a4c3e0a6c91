package dev.toolcoach.cluster.node;

import akka.actor.Address;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.toolcoach.cluster.toolserver.ToolHostSettings;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.Precision;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a node is and where it listens, read and checked from its configuration before anything starts.
 *
 * @param roles          the node's cluster roles
 * @param host           remoting host (canonical)
 * @param port           remoting port, 0 for any free port
 * @param seeds          seed node addresses; empty means bootstrap or, for a coach, joining itself
 * @param managementHost Akka Management HTTP host
 * @param managementPort Akka Management HTTP port, 0 for any free port
 * @param athleteActors  athlete actors an athlete node runs
 * @param tools          tool suites a tool node hosts and the coach watches, with their settings
 * @param bootstrap      join through Akka Management Cluster Bootstrap (Kubernetes) instead of seeds
 * @param device         where the node's models compute ({@code toolcoach.device}: cpu, cuda or cuda:N)
 * @param precision      the type its frozen bases compute in ({@code toolcoach.precision}: auto, f32, f16 or bf16)
 * @param codeAct        the sandbox code actions run in ({@code toolcoach.code-act})
 */
public record NodeSettings(Set<NodeRole> roles, String host, int port, List<Address> seeds,
                           String managementHost, int managementPort, int athleteActors,
                           ToolHostSettings tools, boolean bootstrap, String device, String precision,
                           CodeActSettings codeAct) {

    public NodeSettings {
        roles = Set.copyOf(roles);
        seeds = List.copyOf(seeds);
    }

    /** Tool suites a tool node hosts and the coach watches. */
    public List<String> toolSuites() {
        return tools.hostedSuites();
    }

    public boolean has(NodeRole role) {
        return roles.contains(role);
    }

    public static NodeSettings fromConfig(Config config) {
        try {
            Set<NodeRole> roles = EnumSet.noneOf(NodeRole.class);
            config.getStringList("akka.cluster.roles").forEach(name -> roles.add(NodeRole.parse(name)));
            if (roles.isEmpty()) {
                throw new NodeConfigException("no role given (akka.cluster.roles / --role)");
            }
            List<Address> seeds = config.getStringList("akka.cluster.seed-nodes").stream().map(SeedAddress::parse).toList();
            boolean bootstrap = config.getBoolean("toolcoach.cluster.bootstrap");
            if (seeds.isEmpty() && !bootstrap && !roles.contains(NodeRole.COACH)) {
                throw new NodeConfigException("no seed node given: a node without the coach role needs --seed akka://"
                        + NodeConfigLoader.SYSTEM_NAME + "@HOST:PORT (or toolcoach.cluster.bootstrap = on)");
            }
            int athletes = config.getInt("toolcoach.athlete.actors-per-node");
            if (athletes < 1) {
                throw new NodeConfigException("toolcoach.athlete.actors-per-node is " + athletes + ", must be at least 1");
            }
            ToolHostSettings tools = ToolHostSettings.fromConfig(config);
            String device = config.getString(ComputeDevice.CONFIG_KEY);
            try {
                ComputeDevice.parse(device);
            } catch (IllegalArgumentException e) {
                throw new NodeConfigException(ComputeDevice.CONFIG_KEY + ": " + e.getMessage());
            }
            String precision = config.getString(Precision.CONFIG_KEY);
            try {
                Precision.parse(precision);
            } catch (IllegalArgumentException e) {
                throw new NodeConfigException(Precision.CONFIG_KEY + ": " + e.getMessage());
            }
            if (roles.contains(NodeRole.TOOL)) {
                tools.checkHostable();
            }
            return new NodeSettings(roles,
                    config.getString("akka.remote.artery.canonical.hostname"),
                    port(config, "akka.remote.artery.canonical.port"),
                    seeds,
                    config.getString("akka.management.http.hostname"),
                    port(config, "akka.management.http.port"),
                    athletes,
                    tools,
                    bootstrap,
                    device,
                    precision,
                    CodeActSettings.fromConfig(config));
        } catch (ConfigException e) {
            throw new NodeConfigException("configuration problem: " + e.getMessage());
        }
    }

    private static int port(Config config, String path) {
        int port = config.getInt(path);
        if (port < 0 || port > 65535) {
            throw new NodeConfigException(path + " = " + port + " is not a port (0..65535)");
        }
        return port;
    }

    /**
     * Where a node whose config is {@code config} computes: its {@code toolcoach.device} in its {@code toolcoach.precision},
     * checked against the engine (as when the node started). What loads a model on the node asks here.
     *
     * @throws IllegalArgumentException in one line, naming what is unknown or not available
     */
    public static ComputeDevice computeDevice(Config config) {
        return ComputeDevice.choose(config.getString(ComputeDevice.CONFIG_KEY), config.getString(Precision.CONFIG_KEY));
    }
}
