package dev.toolcoach.bench.cluster;

import dev.toolcoach.bench.BenchOptions;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.bench.learning.Load;
import dev.toolcoach.cluster.job.JobAnnouncer;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.model.io.ModelDigest;
import dev.toolcoach.cluster.weights.AdapterPublisher;
import dev.toolcoach.testkit.TestAdapters;
import dev.toolcoach.cluster.weights.WeightsChunker;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TinyChatModel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;

/**
 * The weights broadcast across real JVMs: a 4.25 MiB LoRA adapter (the shape of {@code AdapterBroadcastTest}:
 * 256-wide, 4 layers, rank 64 on every projection, 4,456,448 raw tensor bytes) published again and again to the
 * engines of 4 athlete JVMs. {@code deploy/local/cluster.sh} starts a coach node, 4 athlete nodes (one athlete
 * actor each) and a tool node (an athlete joins a job only once its tools are reachable) on 127.0.0.1; this JVM
 * joins their cluster as one more node and plays the learner's side: it announces a job whose model is a random
 * model of that shape (so every athlete node loads it into an engine and starts its {@code AdapterReceiver}) and
 * runs the job's {@code AdapterPublisher}. The job has no coach, so the engines are idle.
 *
 * <p>Latency: from just before {@code Publish} to the last of the 4 engines having swapped the version in, as each
 * athlete node's {@code /metrics} tells ({@code toolcoach_engine_adapter_version} and
 * {@code toolcoach_engine_adapter_swapped_seconds}, the Unix time of the swap; one clock, one machine). Bytes: each
 * athlete node's {@code toolcoach_message_bytes_total{direction="received",kind="AdapterPart"}} (what the
 * serializer read: Kryo bytes, without Artery's framing), per published version, against the raw tensor bytes. The
 * first versions warm up (JIT, the topic learning of the receivers' nodes) and are not counted. Bounded: 3 minutes
 * to start, 30 s per version; the cluster is stopped in any case.
 *
 * <p>Measured on 2026-11-23, 2 cores shared with other engineers' builds and cluster tests, two runs: publish to all
 * 4 engines swapped p50 183 ms, p90 290 ms, max 381 ms over 20 versions (one engine: p50 149 ms; load 7.5 to 13.4),
 * and p50 170 ms, p90 235 ms, max 287 ms (one engine: p50 160 ms; load 5.5 to 8.6); both runs 4,544,075 wire bytes per engine per version, 1.020x the 4,456,448 raw tensor bytes, in
 * 23 parts (as in one JVM: the layout riding in every part is most of the overhead). An idle engine looks for a
 * pending adapter every 50 ms (its request queue's poll), so up to 50 ms of each figure is that wait.
 *
 * <p>Run from the repository root after building the node jars ({@code mvn -B -o -DskipTests package}):
 * <pre>{@code
 * export DJL_OFFLINE=true OPT_OUT_TRACKING=true
 * mvn -B -q -o -pl modules/bench -am test-compile exec:exec -Dexec.executable=echo -Dexec.args=%classpath \
 *     | grep '^/.*bench/target/classes' > /tmp/bench-cp.txt
 * java -Xmx512m -cp "$(cat /tmp/bench-cp.txt)" dev.toolcoach.bench.cluster.AdapterBroadcastBench [key=value ...]
 * }</pre>
 * Keys and defaults: {@code engines=4 publishes=20 warmup=3 pause-ms=500 heap=768m base-port=29520
 * base-management-port=11558}.
 */
public final class AdapterBroadcastBench {

    /** 256-wide, 4 layers, 4 heads: with rank 64 on every projection, 1,114,112 adapter floats (4.25 MiB). */
    private static final ModelConfig MODEL = new ModelConfig("qwen2", 256, 512, 4, 4, 4, TinyChatModel.VOCAB, 512, 1e-6f,
            1_000_000f, false, true);
    private static final LoraConfig LORA = new LoraConfig(64, 128f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS));
    private static final String JOB = "adapter-broadcast-bench";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(30);

    private AdapterBroadcastBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = BenchOptions.parse(Map.of("engines", "4", "publishes", "20", "warmup", "3", "pause-ms", "500",
                "heap", "768m", "base-port", "29520", "base-management-port", "11558"), args);
        int engines = Integer.parseInt(options.get("engines"));
        int publishes = Integer.parseInt(options.get("publishes"));
        int warmup = Integer.parseInt(options.get("warmup"));
        long pauseMillis = Long.parseLong(options.get("pause-ms"));
        Path work = Files.createTempDirectory("adapter-broadcast");
        Path model = TinyChatModel.write(work.resolve("model"), MODEL, 1);
        long raw = TestAdapters.random(MODEL, LORA, 1, 1).tensors().values().stream().mapToLong(t -> (long) t.data().length * Float.BYTES).sum();
        System.out.printf("adapter broadcast: %d raw tensor bytes per version, %d athlete JVMs, %d versions (+%d warm-up); "
                + "work dir %s; load %s%n", raw, engines, publishes, warmup, work, Load.now());

        try (LocalCluster cluster = LocalCluster.up(work.resolve("cluster"), engines, 1,
                "-Xmx" + options.get("heap") + " -XX:+UseSerialGC -Dtoolcoach.athlete.actors-per-node=1",
                Integer.parseInt(options.get("base-port")), Integer.parseInt(options.get("base-management-port")))) {
            ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "ToolCoach", nodeConfig(cluster.clusterPort("coach")));
            try {
                run(cluster, system, model, raw, engines, publishes, warmup, pauseMillis);
            } finally {
                system.terminate();
                system.getWhenTerminated().toCompletableFuture().get();
            }
        }
        System.out.println("load at the end " + Load.now());
    }

    private static void run(LocalCluster cluster, ActorSystem<Void> system, Path model, long raw, int engines, int publishes,
                            int warmup, long pauseMillis) throws Exception {
        List<String> athletes = cluster.nodes("athlete");
        await("this node up with the cluster", START_TIMEOUT, () -> upMembers(system) == engines + 2);
        system.systemActorOf(JobAnnouncer.create(new JobSpec(JOB, model.toAbsolutePath(), ModelDigest.of(model), ActionFormat.TOOL_N1_COMPACT, List.of("arithmetic"),
                new RolloutSettings(1.0, 16, 1, 256), 1, 0, Duration.ofSeconds(1), 1, Optional.empty())), "job-announcer", Props.empty());
        ActorRef<AdapterPublisherProtocol.Command> publisher = system.systemActorOf(
                AdapterPublisher.create(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES), "adapter-publisher", Props.empty());
        await("every athlete node serving the job's engine", START_TIMEOUT,
                () -> athletes.stream().allMatch(a -> version(cluster, a) >= 0));
        Thread.sleep(2000); // for the topic's registry to spread (a version it misses arrives by catch-up, in warm-up)

        Map<String, Double> bytes0 = new HashMap<>();
        Map<String, Double> parts0 = new HashMap<>();
        List<Double> all = new ArrayList<>();
        List<Double> each = new ArrayList<>();
        for (int v = 1; v <= warmup + publishes; v++) {
            if (v == warmup + 1) {
                for (String a : athletes) {
                    Map<String, Double> m = cluster.metrics(a);
                    bytes0.put(a, m.getOrDefault(received("bytes"), 0.0));
                    parts0.put(a, m.getOrDefault(received("messages"), 0.0));
                }
            }
            AdapterWeights adapter = TestAdapters.random(MODEL, LORA, v, v);
            Instant start = Instant.now();
            publisher.tell(new AdapterPublisher.Publish(adapter));
            int version = v;
            await("version " + v + " on every engine", VERSION_TIMEOUT, () -> athletes.stream().allMatch(a -> version(cluster, a) >= version));
            double t0 = start.getEpochSecond() + start.getNano() / 1e9;
            double slowest = 0;
            for (String a : athletes) {
                double latency = cluster.metrics(a).get("toolcoach_engine_adapter_swapped_seconds") - t0;
                slowest = Math.max(slowest, latency);
                if (v > warmup) each.add(latency * 1000);
            }
            if (v > warmup) all.add(slowest * 1000);
            System.out.printf("  version %2d%s: every engine after %6.1f ms%n", v, v <= warmup ? " (warm-up)" : "", slowest * 1000);
            Thread.sleep(pauseMillis);
        }
        double bytes = 0;
        double parts = 0;
        for (String a : athletes) {
            Map<String, Double> m = cluster.metrics(a);
            bytes += m.getOrDefault(received("bytes"), 0.0) - bytes0.get(a);
            parts += m.getOrDefault(received("messages"), 0.0) - parts0.get(a);
        }
        double wirePerEngine = bytes / athletes.size() / publishes;
        System.out.printf("publish -> all %d engines swapped: p50 %.1f ms, p90 %.1f ms, max %.1f ms over %d versions; "
                        + "per engine p50 %.1f ms%n", athletes.size(), percentile(all, 0.5), percentile(all, 0.9),
                percentile(all, 1.0), all.size(), percentile(each, 0.5));
        System.out.printf("wire bytes per engine per version %.0f (%.4fx the %d raw tensor bytes), %.1f parts; load %s%n",
                wirePerEngine, wirePerEngine / raw, raw, parts / athletes.size() / publishes, Load.now());
    }

    private static String received(String what) {
        return "toolcoach_message" + (what.equals("bytes") ? "_bytes" : "s") + "_total{direction=\"received\",kind=\"AdapterPart\"}";
    }

    /** The adapter version an athlete node's engine serves, -1 while it serves none (or does not answer). */
    private static int version(LocalCluster cluster, String athlete) {
        try {
            return Math.toIntExact(Math.round(cluster.metrics(athlete).getOrDefault("toolcoach_engine_adapter_version", -1.0)));
        } catch (Exception e) {
            return -1;
        }
    }

    private static Config nodeConfig(int coachPort) {
        return ConfigFactory.parseString("""
                akka.remote.artery.canonical.hostname = "127.0.0.1"
                akka.remote.artery.canonical.port = 0
                akka.cluster.roles = ["bench"]
                akka.cluster.seed-nodes = ["akka://ToolCoach@127.0.0.1:%d"]
                akka.loglevel = WARNING
                """.formatted(coachPort))
                .withFallback(ConfigFactory.parseResources("toolcoach-node.conf"))
                .withFallback(ConfigFactory.load()).resolve();
    }

    private static long upMembers(ActorSystem<?> system) {
        return StreamSupport.stream(Cluster.get(system).state().getMembers().spliterator(), false)
                .filter(m -> m.status() == MemberStatus.up()).count();
    }

    private static double percentile(List<Double> values, double q) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1 < 0 ? 0 : (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
            Thread.sleep(10); // polling the nodes' /metrics with a deadline: no event crosses the process boundary
        }
    }
}
