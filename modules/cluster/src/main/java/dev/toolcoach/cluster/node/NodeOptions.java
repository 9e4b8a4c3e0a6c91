package dev.toolcoach.cluster.node;

import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The command-line options every node program shares (a picocli mixin). */
public final class NodeOptions {

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON file with node settings (env TOOLCOACH_CONFIG)")
    Path configFile;

    @Option(names = "--role", split = ",", paramLabel = "ROLE",
            description = "cluster role(s): coach, learner, athlete, tool (env TOOLCOACH_ROLES)")
    List<String> roles;

    @Option(names = "--host", description = "remoting host, default 127.0.0.1 (env TOOLCOACH_HOST)")
    String host;

    @Option(names = "--port", description = "remoting port, 0 = any free port (env TOOLCOACH_PORT)")
    Integer port;

    @Option(names = "--seed", split = ",", paramLabel = "ADDRESS",
            description = "seed node(s), akka://ToolCoach@HOST:PORT (env TOOLCOACH_SEEDS)")
    List<String> seeds;

    @Option(names = "--management-host", description = "management HTTP host (env TOOLCOACH_MANAGEMENT_HOST)")
    String managementHost;

    @Option(names = "--management-port", description = "management HTTP port (env TOOLCOACH_MANAGEMENT_PORT)")
    Integer managementPort;

    @Option(names = "--athletes", paramLabel = "N", description = "athlete actors on an athlete node (env TOOLCOACH_ATHLETES)")
    Integer athleteActors;

    @Option(names = "--tool-suite", split = ",", paramLabel = "SUITE",
            description = "tool suites hosted (tool node) or watched (coach) (env TOOLCOACH_TOOL_SUITES)")
    List<String> toolSuites;

    @Option(names = "--device", paramLabel = "DEVICE",
            description = "where this node's models compute: cpu, cuda or cuda:N (env TOOLCOACH_DEVICE; default cpu)")
    String device;

    @Option(names = "--precision", paramLabel = "P",
            description = "the type this node's frozen bases compute in: auto, f32, f16 or bf16 (env TOOLCOACH_PRECISION; default auto)")
    String precision;

    public NodeOverrides overrides() {
        return new NodeOverrides(Optional.ofNullable(configFile), Optional.ofNullable(roles), Optional.ofNullable(host),
                Optional.ofNullable(port), Optional.ofNullable(seeds), Optional.ofNullable(managementHost),
                Optional.ofNullable(managementPort), Optional.ofNullable(athleteActors), Optional.ofNullable(toolSuites),
                Optional.ofNullable(device), Optional.ofNullable(precision));
    }
}
