package dev.toolcoach.bench.rollout;

import dev.toolcoach.bench.BenchOptions;
import dev.toolcoach.brain.run.TurnBarrier;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.testkit.PerTrajectoryGenerator;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Rollout-phase wall time of one batch in the two rollout modes: {@code async}, every trajectory on
 * its own (the {@link AgentLoop} alone, VerlTool's asynchronous rollout), against a turn-level
 * barrier across the batch ({@link TurnBarrier#turns}: every running trajectory finishes turn t,
 * reply and tool calls, before any starts turn t+1) and against full synchronous rollout
 * ({@link TurnBarrier#holdingReplies}: also no tool call before the batch's generation of the turn is
 * over, VerlTool's {@code sync} mode).
 *
 * <p>The model is scripted, not a neural network: each trajectory replays its replies through the
 * real agent loop (ChatML, byte tokenizer, Tool-N1 parsing, exact-token traces) and each reply
 * arrives after a fixed decode cost per generated token. By default every trajectory decodes at
 * that speed however many decode at once, as on an engine with free batch capacity; that favours
 * the barrier modes, whose generation comes in bursts. With {@code batch-width=N} the replies share
 * one {@link SteppedEngine} whose steps slow down beyond N active replies. Tool calls answer after
 * their drawn latency without holding a thread. Both wait on one scheduler thread, so only the
 * loop's own work uses the CPU.
 *
 * <p>Each round draws a new workload ({@link RolloutWorkload}: seed + round) and runs every mode on
 * it, in an order rotated per round; one unreported round warms up first. Each mode is reported
 * with its wall time, trajectories per second and the ideal wall time of its schedule with no
 * overhead; the ratios are async's speedup.
 *
 * <p>Run from the repository root:
 * <pre>{@code
 * mvn -B -q -pl modules/bench -am test-compile org.apache.maven.plugins:maven-dependency-plugin:3.6.1:build-classpath -Dmdep.outputFile=target/bench-classpath.txt
 * java -cp modules/bench/target/classes:$(cat modules/bench/target/bench-classpath.txt) \
 *     dev.toolcoach.bench.rollout.RolloutModesBench [key=value ...]
 * }</pre>
 * Keys and defaults: {@code trajectories=64 rounds=5 ms-per-token=1.0 batch-width=0 latency=log-uniform
 * thought=40-240 thought-spread=uniform seed=42}; a spread is {@code uniform} or {@code log-uniform};
 * {@code batch-width=0} is the engine with free capacity. The ideal schedule is only known for that one.
 */
public final class RolloutModesBench {

    /** How the batch is rolled out. */
    enum Mode {
        ASYNC, TURNS, SYNC;

        String label() {
            return switch (this) {
                case ASYNC -> "async";
                case TURNS -> "turn barrier";
                case SYNC -> "sync (turn barrier + held replies)";
            };
        }
    }

    private static final ToolSpec LOOKUP = ToolSpec.of("lookup", "Looks up a value by key.",
            "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"}},\"required\":[\"key\"]}");
    private static final AgentConfig CONFIG = new AgentConfig(ActionFormat.TOOL_N1,
            SamplingParams.greedy(8192), RolloutWorkload.MAX_TOOL_TURNS + 1, 65_536, Duration.ofSeconds(30), 4000);

    private RolloutModesBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = BenchOptions.parse(Map.of("trajectories", "64", "rounds", "5", "ms-per-token", "1.0",
                "batch-width", "0", "latency", "log-uniform", "thought", "40-240", "thought-spread", "uniform", "seed", "42"), args);
        int trajectories = Integer.parseInt(options.get("trajectories"));
        int rounds = Integer.parseInt(options.get("rounds"));
        double msPerToken = Double.parseDouble(options.get("ms-per-token"));
        int batchWidth = Integer.parseInt(options.get("batch-width"));
        RolloutWorkload.Spread latency = spread(options.get("latency"));
        String[] thought = options.get("thought").split("-", 2);
        RolloutWorkload.Thoughts thoughts = new RolloutWorkload.Thoughts(Integer.parseInt(thought[0]),
                Integer.parseInt(thought[thought.length - 1]), spread(options.get("thought-spread")));
        long seed = Long.parseLong(options.get("seed"));

        System.out.printf("rollout modes: %d trajectories of %d-%d tool turns (1-2 calls each) and an answer; tool latency "
                        + "%s %d-%d ms; thoughts %s %d-%d tokens; scripted generator at %.2f ms per generated token, %s; "
                        + "%d rounds, seed %d%n",
                trajectories, RolloutWorkload.MIN_TOOL_TURNS, RolloutWorkload.MAX_TOOL_TURNS, options.get("latency"),
                RolloutWorkload.MIN_LATENCY_MILLIS, RolloutWorkload.MAX_LATENCY_MILLIS, options.get("thought-spread"),
                thoughts.min(), thoughts.max(), msPerToken, batchWidth == 0 ? "free batch capacity"
                        : "steps slower beyond " + batchWidth + " active replies", rounds, seed);
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "bench-clock"));
        ExecutorService loopPool = Executors.newFixedThreadPool(2, r -> daemon(r, "bench-loop"));
        try {
            Bench bench = new Bench(tokenizer, msPerToken, batchWidth, clock, loopPool);
            bench.round(RolloutWorkload.draw(trajectories, latency, thoughts, seed - 1), List.of(Mode.values()));
            Map<Mode, List<Double>> speedups = new EnumMap<>(Mode.class);
            for (int round = 1; round <= rounds; round++) {
                RolloutWorkload workload = RolloutWorkload.draw(trajectories, latency, thoughts, seed + round);
                List<Mode> order = new ArrayList<>(List.of(Mode.values()));
                Collections.rotate(order, round);
                Map<Mode, Long> wall = bench.round(workload, order);
                Map<Mode, Double> ideal = workload.idealMillis(tokenizer, msPerToken);
                System.out.printf("round %d (seed %d): %s%n", round, seed + round, workload.summary(tokenizer));
                for (Mode mode : Mode.values()) {
                    double ms = wall.get(mode) / 1e6;
                    System.out.printf("  %-36s %8.1f ms  %7.1f trajectories/s%s%n", mode.label(), ms,
                            trajectories / (ms / 1e3), batchWidth == 0 ? String.format("  (ideal schedule %7.1f ms)", ideal.get(mode)) : "");
                }
                for (Mode mode : List.of(Mode.TURNS, Mode.SYNC)) {
                    double ratio = (double) wall.get(mode) / wall.get(Mode.ASYNC);
                    speedups.computeIfAbsent(mode, m -> new ArrayList<>()).add(ratio);
                    System.out.printf("  async speedup over %-17s x%.2f%s%n", mode.label().split(" \\(")[0] + ":", ratio,
                            batchWidth == 0 ? String.format(" (ideal x%.2f)", ideal.get(mode) / ideal.get(Mode.ASYNC)) : "");
                }
            }
            for (Map.Entry<Mode, List<Double>> e : speedups.entrySet()) {
                double[] sorted = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
                System.out.printf("async speedup over %s: median x%.2f, min x%.2f, max x%.2f over %d rounds%n",
                        e.getKey().label(), sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1], sorted.length);
            }
        } finally {
            loopPool.shutdownNow();
            clock.shutdownNow();
        }
    }

    private static RolloutWorkload.Spread spread(String name) {
        return RolloutWorkload.Spread.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Runs one workload in each mode and checks every trajectory ran its whole script, every reply whole and parsed. */
    private record Bench(ByteTokenizer tokenizer, double msPerToken, int batchWidth, ScheduledExecutorService clock,
                         ExecutorService loopPool) {

        Map<Mode, Long> round(RolloutWorkload workload, List<Mode> order) throws Exception {
            Map<Mode, Long> wall = new EnumMap<>(Mode.class);
            for (Mode mode : order) wall.put(mode, run(workload, mode));
            return wall;
        }

        private long run(RolloutWorkload workload, Mode mode) throws Exception {
            Map<String, Generator> scripts = new HashMap<>();
            workload.rollouts().forEach((id, turns) -> scripts.put(id, ReplayGenerator.chatMl(tokenizer,
                    turns.stream().map(RolloutWorkload.Turn::reply).toList())));
            Generator model = new PerTrajectoryGenerator(scripts);
            Generator paced = batchWidth == 0 ? new PacedGenerator(model, msPerToken, clock)
                    : new SteppedEngine(model, msPerToken, batchWidth, clock);
            Generator generator = switch (mode) {
                case ASYNC -> paced;
                case TURNS -> TurnBarrier.turns(workload.ids()).generator(paced);
                case SYNC -> TurnBarrier.holdingReplies(workload.ids()).generator(paced);
            };
            AgentLoop loop = new AgentLoop(tokenizer, new ChatMlFormat(), generator, new DelayedTools(workload, clock),
                    CONFIG, loopPool);

            long start = System.nanoTime();
            List<CompletableFuture<Trace>> runs = new ArrayList<>();
            for (String id : workload.ids()) {
                runs.add(loop.run(new RolloutRequest(id, "bench", id, "Look the values up and sum them.", Map.of()))
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
            long elapsed = System.nanoTime() - start;
            for (CompletableFuture<Trace> run : runs) {
                Trace trace = run.join();
                if (trace.termination() != Termination.ANSWER || trace.turns().size() != workload.turns(trace.rolloutId())
                        || !trace.turns().stream().allMatch(turn -> turn.parsedCompletion().valid())) {
                    throw new IllegalStateException(mode.label() + ": trajectory " + trace.rolloutId() + " ended "
                            + trace.termination() + " after " + trace.turns().size() + " of "
                            + workload.turns(trace.rolloutId()) + " turns: " + trace.error());
                }
            }
            return elapsed;
        }
    }

    /** Hands each reply over once its tokens would have been decoded, as an engine streaming at a fixed rate would. */
    private record PacedGenerator(Generator inner, double msPerToken, ScheduledExecutorService clock) implements Generator {

        @Override
        public CompletionStage<Generation> generate(GenerationRequest request) {
            return inner.generate(request).thenCompose(reply -> {
                CompletableFuture<Generation> paced = new CompletableFuture<>();
                clock.schedule(() -> paced.complete(reply), Math.round(reply.length() * msPerToken * 1e6), TimeUnit.NANOSECONDS);
                return paced;
            });
        }

        @Override
        public void release(String trajectoryId) {
            inner.release(trajectoryId);
        }
    }

    /** The {@code lookup} tool: each call answers after the latency the workload drew for its key. */
    private record DelayedTools(RolloutWorkload workload, ScheduledExecutorService clock) implements ToolEnvironment {

        @Override
        public List<ToolSpec> specs() {
            return List.of(LOOKUP);
        }

        @Override
        public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
            return calls.stream().map(this::answer).toList();
        }

        private CompletionStage<ToolResult> answer(ToolCall call) {
            String key = String.valueOf(call.arguments().get("key"));
            Long millis = workload.latencyMillis(key);
            if (millis == null) {
                return CompletableFuture.failedFuture(new IllegalArgumentException("no value under key " + key));
            }
            CompletableFuture<ToolResult> result = new CompletableFuture<>();
            String text = "value of " + key + " is " + Math.floorMod(key.hashCode(), 1000);
            clock.schedule(() -> result.complete(ToolResult.ok(call, text, Map.of("text", text), millis, false)),
                    millis, TimeUnit.MILLISECONDS);
            return result;
        }
    }
}
