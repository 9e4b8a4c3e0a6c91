package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Settings given on the command line or in the environment, each optional; absent values leave the
 * lower configuration layers in charge.
 */
public record NodeOverrides(Optional<Path> configFile,
                            Optional<List<String>> roles,
                            Optional<String> host,
                            Optional<Integer> port,
                            Optional<List<String>> seeds,
                            Optional<String> managementHost,
                            Optional<Integer> managementPort,
                            Optional<Integer> athleteActors,
                            Optional<List<String>> toolSuites,
                            Optional<String> device,
                            Optional<String> precision) {

    /** Overrides that leave the device and the precision to the lower layers. */
    public NodeOverrides(Optional<Path> configFile, Optional<List<String>> roles, Optional<String> host, Optional<Integer> port,
                         Optional<List<String>> seeds, Optional<String> managementHost, Optional<Integer> managementPort,
                         Optional<Integer> athleteActors, Optional<List<String>> toolSuites) {
        this(configFile, roles, host, port, seeds, managementHost, managementPort, athleteActors, toolSuites, Optional.empty(),
                Optional.empty());
    }

    public static NodeOverrides none() {
        return new NodeOverrides(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The overrides as a configuration layer on the keys Akka and ToolCoach read. */
    Config toConfig() {
        Map<String, Object> values = new HashMap<>();
        roles.ifPresent(v -> values.put("akka.cluster.roles", v));
        host.ifPresent(v -> values.put("akka.remote.artery.canonical.hostname", v));
        port.ifPresent(v -> values.put("akka.remote.artery.canonical.port", v));
        seeds.ifPresent(v -> values.put("akka.cluster.seed-nodes", v));
        managementHost.ifPresent(v -> values.put("akka.management.http.hostname", v));
        managementPort.ifPresent(v -> values.put("akka.management.http.port", v));
        athleteActors.ifPresent(v -> values.put("toolcoach.athlete.actors-per-node", v));
        toolSuites.ifPresent(v -> values.put("toolcoach.tools.suites", v));
        device.ifPresent(v -> values.put("toolcoach.device", v));
        precision.ifPresent(v -> values.put("toolcoach.precision", v));
        return ConfigFactory.parseMap(values, "command line or environment");
    }
}
