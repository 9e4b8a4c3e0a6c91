package dev.toolcoach.cluster.tile;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.typed.Cluster;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import dev.toolcoach.agent.adapt.Experience;
import dev.toolcoach.agent.adapt.ToolPreferences;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Cluster nodes with TILE preferences for the replication tests, and the main of the node the multi-JVM test starts in
 * a JVM of its own: {@code TileNodes SEED}: joins SEED, records its experience, prints {@code COUNTS ...} whenever its
 * merged view changes, and stops when its stdin closes.
 */
public final class TileNodes {
    private TileNodes() {
    }

    static ActorSystem<Void> start(List<String> seeds, String durableDir) {
        Config config = ConfigFactory.parseMap(Map.of(
                        "akka.actor.provider", "cluster",
                        "akka.remote.artery.canonical.hostname", "127.0.0.1",
                        "akka.remote.artery.canonical.port", 0,
                        "toolcoach.tile.durable-dir", durableDir,
                        "toolcoach.tile.flush-interval", "100ms"))
                .withValue("akka.cluster.seed-nodes", ConfigValueFactory.fromIterable(seeds))
                .withFallback(ConfigFactory.parseResources("application-test.conf"))
                .withFallback(ConfigFactory.load());
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "ToolCoach", config);
        if (seeds.isEmpty()) Cluster.get(system).manager().tell(new akka.cluster.typed.Join(Cluster.get(system).selfMember().address()));
        return system;
    }

    /** The merged view as one comparable line. */
    static String counts(ToolPreferences preferences) {
        Map<String, Experience> sorted = new TreeMap<>();
        preferences.all().forEach((k, e) -> sorted.put(k.context() + "/" + k.tool(), e));
        return sorted.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().successes() + ":" + e.getValue().failures())
                .collect(Collectors.joining(","));
    }

    /** The second node's own experience: context task:b, and its share of task:shared. */
    static void recordNodeB(ToolPreferences p) {
        for (int i = 0; i < 3; i++) p.observe("task:b", "x", true);
        for (int i = 0; i < 2; i++) p.observe("task:b", "y", false);
        for (int i = 0; i < 2; i++) p.observe("task:shared", "x", true);
        p.observe("task:shared", "x", false);
    }

    public static void main(String[] args) throws Exception {
        ActorSystem<Void> system = start(List.of(args[0]), "");
        ToolPreferences preferences = TilePreferences.get(system).preferences();
        recordNodeB(preferences);
        Thread printer = new Thread(() -> {
            String last = null;
            while (!Thread.currentThread().isInterrupted()) {
                String now = counts(preferences);
                if (!now.equals(last)) {
                    System.out.println("COUNTS " + now);
                    System.out.flush();
                    last = now;
                }
                try {
                    Thread.sleep(50); // a print loop, not a wait for a condition
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        printer.setDaemon(true);
        printer.start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            while (in.readLine() != null) {
                // runs until the test closes stdin
            }
        }
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
        System.exit(0);
    }

    static Path javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }
}
