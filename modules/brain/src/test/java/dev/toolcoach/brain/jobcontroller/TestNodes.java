package dev.toolcoach.brain.jobcontroller;

import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeLauncher;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeSettings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nodes of the job-controller tests: on free ports of 127.0.0.1, no JVM shutdown hook, runs under {@code runs}; closing
 * stops every node started, and waits for them.
 */
final class TestNodes implements AutoCloseable {

    private final List<ActorSystem<?>> started = new ArrayList<>();

    /** A node of {@code program} joining {@code seeds} (none: its own cluster), {@code settings} over the node defaults. */
    ActorSystem<?> start(NodeProgram program, List<String> seeds, Path runs, Map<String, String> settings) {
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"),
                Optional.of(0), Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(4), Optional.of(List.of("finance")));
        Config config = ConfigFactory.parseMap(settings)
                .withFallback(ConfigFactory.parseMap(Map.of("akka.coordinated-shutdown.run-by-jvm-shutdown-hook", "off",
                        "akka.loglevel", "WARNING", "toolcoach.jobs.runs-dir", runs.toString())))
                .withFallback(NodeConfigLoader.load(program, overrides, Map.of()));
        ActorSystem<?> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        started.add(system);
        return system;
    }

    @Override
    public void close() {
        started.forEach(ActorSystem::terminate);
        started.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
        started.clear();
    }
}
