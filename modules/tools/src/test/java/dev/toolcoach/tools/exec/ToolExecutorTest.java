package dev.toolcoach.tools.exec;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.schema.JsonSchemaGenerator;
import dev.toolcoach.tools.spi.Param;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolPlugin;
import dev.toolcoach.tools.spi.ToolSession;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolExecutorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private final List<ToolExecutor> executors = new ArrayList<>();
    private final Misbehaving misbehaving = new Misbehaving();

    /** Tools that fail in every way a real tool can. */
    public static final class Misbehaving {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();
        final CountDownLatch interrupted = new CountDownLatch(1);
        /** The hung tool's body has begun: a call counted as running may not have reached it yet. */
        final CountDownLatch hanging = new CountDownLatch(1);

        @ToolMethod(description = "echoes its text")
        public String echo(@Param("text to echo") String text) {
            return text;
        }

        @ToolMethod(description = "throws")
        public String explode(@Param("why") String why) {
            throw new IllegalStateException("boom: " + why);
        }

        @ToolMethod(description = "spins on the CPU for the given milliseconds of its thread's CPU time")
        public String spin(@Param("milliseconds") long millis) {
            java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
            long until = cpu.getCurrentThreadCpuTime() + millis * 1_000_000;
            long x = 0;
            while (cpu.getCurrentThreadCpuTime() < until) x += System.nanoTime() % 7;
            return "spun " + (x >= 0 ? millis : 0) + " ms";
        }

        @ToolMethod(description = "never returns on its own")
        public String hang() {
            hanging.countDown();
            try {
                new CountDownLatch(1).await();
                return "unreachable";
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }

        final AtomicInteger stubbornRunning = new AtomicInteger();

        @ToolMethod(description = "ignores interrupts until the test lets it go")
        public String stubborn() {
            stubbornRunning.incrementAndGet();
            try {
                while (release.getCount() > 0) {
                    LockSupport.parkNanos(1_000_000); // an interrupt does not stop this loop
                }
                return "released";
            } finally {
                stubbornRunning.decrementAndGet();
            }
        }

        @ToolMethod(description = "returns this many characters")
        public String flood(@Param("characters") int chars) {
            StringBuilder s = new StringBuilder(chars);
            for (int i = 0; i < chars; i++) s.append((char) ('a' + i % 26));
            return "HEAD" + s + "TAIL";
        }

        @ToolMethod(description = "waits until the test lets it go, counting how many run at once")
        public String gate() throws InterruptedException {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                release.await();
                return "released";
            } finally {
                running.decrementAndGet();
            }
        }
    }

    /** A stateful plugin: a counter per trajectory, recording opens and closes. */
    static final class CounterPlugin implements ToolPlugin {
        final Map<String, Integer> opened = new ConcurrentHashMap<>();
        final Map<String, Integer> closed = new ConcurrentHashMap<>();

        @Override
        public List<ToolSpec> tools() {
            return List.of(new ToolSpec("increment", "adds one to this trajectory's counter", JsonSchemaGenerator.objectSchema()));
        }

        @Override
        public ToolSession open(String trajectoryId) {
            opened.merge(trajectoryId, 1, Integer::sum);
            return new ToolSession() {
                int count;

                @Override
                public ToolOutput call(String toolName, Map<String, Object> arguments) {
                    count++;
                    return new ToolOutput(trajectoryId + "=" + count, count);
                }

                @Override
                public void close() {
                    closed.merge(trajectoryId, 1, Integer::sum);
                }
            };
        }
    }

    @AfterEach
    void closeExecutors() {
        misbehaving.release.countDown();
        executors.forEach(ToolExecutor::close);
    }

    private ToolExecutor executor(ToolSuite suite, ExecutorSettings settings) {
        ToolExecutor executor = new ToolExecutor(suite, settings);
        executors.add(executor);
        return executor;
    }

    private ToolExecutor misbehavingExecutor(ExecutorSettings settings) {
        return executor(ToolSuite.builder("test").addAnnotated(misbehaving).build(), settings);
    }

    private static ToolResult await(CompletableFuture<ToolResult> result) throws Exception {
        return result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static void pollUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting until " + what);
            LockSupport.parkNanos(200_000); // poll interval; the deadline above bounds the wait
        }
    }

    @Test
    void okCallReturnsTextAndStructuredOutput() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        ToolCall call = new ToolCall("echo", Map.of("text", "hello"));
        ToolResult result = await(executor.call("t1", call));
        assertEquals(ToolResult.Status.OK, result.status());
        assertEquals("hello", result.text());
        assertEquals("hello", result.structured());
        assertEquals(call, result.call());
        assertFalse(result.truncated());
    }

    @Test
    void unknownToolIsAnErrorResultNamingTheAvailableTools() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        ToolResult result = await(executor.call("t1", new ToolCall("teleport", Map.of())));
        assertEquals(ToolResult.Status.UNKNOWN_TOOL, result.status());
        assertTrue(result.error().contains("unknown tool 'teleport'"), result.error());
        assertTrue(result.error().contains("echo, explode, flood, gate, hang"), result.error());
        assertEquals(1, executor.metrics().snapshot().get(0).count(ToolResult.Status.UNKNOWN_TOOL));
    }

    @Test
    void invalidArgumentsAreRejectedBeforeTheToolRunsWithEveryProblemNamed() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        ToolResult wrongType = await(executor.call("t1", new ToolCall("flood", Map.of("chars", "many", "extra", 1))));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, wrongType.status());
        assertTrue(wrongType.error().contains("chars: expected integer, got string \"many\""), wrongType.error());
        assertTrue(wrongType.error().contains("extra: unexpected argument"), wrongType.error());
        ToolResult missing = await(executor.call("t1", new ToolCall("echo", Map.of())));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, missing.status());
        assertTrue(missing.error().contains("text: missing required argument"), missing.error());
        ToolResult fractional = await(executor.call("t1", new ToolCall("flood", Map.of("chars", 2.5))));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, fractional.status());
        // a valid JSON integer that does not fit the Java parameter is caught when converting
        ToolResult tooBig = await(executor.call("t1", new ToolCall("flood", Map.of("chars", 10_000_000_000L))));
        assertEquals(ToolResult.Status.INVALID_ARGUMENTS, tooBig.status());
        assertTrue(tooBig.error().startsWith("argument 'chars' cannot be read as int: Numeric value (10000000000) out of range"),
                tooBig.error());
    }

    @Test
    void throwingToolBecomesAnErrorObservationWithoutStackTrace() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        ToolResult result = await(executor.call("t1", new ToolCall("explode", Map.of("why", "testing"))));
        assertEquals(ToolResult.Status.ERROR, result.status());
        assertEquals("tool 'explode' failed: IllegalStateException: boom: testing", result.error());
        assertEquals("Error: " + result.error(), result.text());
        assertFalse(result.text().contains("\tat "), "no stack trace reaches the model");
    }

    @Test
    void hangingToolTimesOutAndIsInterrupted() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withCallTimeout(Duration.ofMillis(200)));
        ToolResult result = await(executor.call("t1", new ToolCall("hang", Map.of())));
        assertEquals(ToolResult.Status.TIMEOUT, result.status());
        assertTrue(result.error().contains("did not finish within 200 ms"), result.error());
        assertTrue(result.latencyMillis() >= 200, "latency " + result.latencyMillis());
        assertTrue(misbehaving.interrupted.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the hung tool was interrupted");
        // the pool thread is free again for the next call
        assertEquals("again", await(executor.call("t1", new ToolCall("echo", Map.of("text", "again")))).text());
    }

    @Test
    void releasingATrajectoryCancelsItsRunningAndWaitingCallsAndLeavesOthersAlone() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withConcurrency(1, 16)
                .withCallTimeout(Duration.ofSeconds(60)));
        CompletableFuture<ToolResult> running = executor.call("dead", new ToolCall("hang", Map.of()));
        pollUntil(() -> executor.runningCalls() == 1 && misbehaving.hanging.getCount() == 0, "the hung call runs");
        CompletableFuture<ToolResult> waiting = executor.call("dead", new ToolCall("echo", Map.of("text", "never")));
        CompletableFuture<ToolResult> other = executor.call("alive", new ToolCall("echo", Map.of("text", "mine")));

        long start = System.nanoTime();
        executor.release("dead"); // its rollout is over
        for (CompletableFuture<ToolResult> f : List.of(running, waiting)) {
            ToolResult r = await(f);
            assertEquals(ToolResult.Status.CANCELLED, r.status());
            assertTrue(r.error().contains("its rollout ended before the call finished"), r.error());
        }
        assertTrue(misbehaving.interrupted.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the running tool was interrupted");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(30).toNanos(), "long before the 60 s deadline");
        assertEquals("mine", await(other).text(), "another trajectory's call runs on");
        ToolMetrics.ToolSnapshot hang = executor.metrics().snapshot().stream().filter(t -> t.tool().equals("hang")).findFirst().orElseThrow();
        assertEquals(1, hang.count(ToolResult.Status.CANCELLED));
    }

    @Test
    void eachToolsCpuTimeIsCountedAndEachCallCarriesItsOwn() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        ToolResult spun = await(executor.call("t", new ToolCall("spin", Map.of("millis", 200))));
        assertEquals("spun 200 ms", spun.text());
        // one thread's CPU time cannot outrun the wall clock
        assertTrue(spun.cpuMillis() >= 200 && spun.cpuMillis() <= spun.latencyMillis() + 1, spun.toString());
        ToolResult cheap = await(executor.call("t", new ToolCall("echo", Map.of("text", "cheap"))));
        assertTrue(cheap.cpuMillis() < 20, cheap.toString());
        Map<String, Long> cpu = new java.util.HashMap<>();
        pollUntil(() -> {
            executor.metrics().snapshot().forEach(t -> cpu.put(t.tool(), t.cpuSumNanos()));
            return cpu.size() == 2;
        }, "both calls counted");
        assertTrue(cpu.get("spin") >= 200_000_000L && cpu.get("spin") < 5_000_000_000L, cpu.toString());
        assertTrue(cpu.get("echo") < cpu.get("spin") / 10, cpu.toString());
    }

    @Test
    void toolsThatIgnoreInterruptsAreAbandonedAndReplacedSoTheSuiteKeepsAnswering() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withConcurrency(2, 16)
                .withCallTimeout(Duration.ofMillis(300)));
        List<CompletableFuture<ToolResult>> stuck = new ArrayList<>();
        for (int i = 0; i < 2; i++) stuck.add(executor.call("t" + i, new ToolCall("stubborn", Map.of())));
        for (CompletableFuture<ToolResult> f : stuck) {
            ToolResult r = await(f);
            assertEquals(ToolResult.Status.TIMEOUT, r.status());
            assertTrue(r.error().contains("did not finish within 300 ms and was interrupted"), r.error());
        }
        assertEquals(2, misbehaving.stubbornRunning.get(), "both still run: they ignore the interrupt");
        assertEquals(2, executor.abandonedThreads());

        // every thread of the pool is stuck, yet the next calls run on the threads that replaced them
        assertEquals("still here", await(executor.call("t2", new ToolCall("echo", Map.of("text", "still here")))).text());
        assertEquals("again", await(executor.call("t3", new ToolCall("echo", Map.of("text", "again")))).text());

        misbehaving.release.countDown();
        pollUntil(() -> executor.abandonedThreads() == 0 && misbehaving.stubbornRunning.get() == 0, "the stuck threads come back");
        assertEquals("after", await(executor.call("t4", new ToolCall("echo", Map.of("text", "after")))).text());
    }

    @Test
    void abandonedThreadsAreReplacedOnlyUpToTheBoundAndACallWaitingThatLongTimesOutFromSubmission() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withConcurrency(1, 16)
                .withCallTimeout(Duration.ofMillis(300)).withMaxAbandonedThreads(1));
        assertEquals(ToolResult.Status.TIMEOUT, await(executor.call("t0", new ToolCall("stubborn", Map.of()))).status());
        assertEquals(1, executor.abandonedThreads());
        assertEquals(ToolResult.Status.TIMEOUT, await(executor.call("t1", new ToolCall("stubborn", Map.of()))).status());
        assertEquals(1, executor.abandonedThreads(), "the bound: the second stuck thread keeps its slot");

        long start = System.nanoTime();
        ToolResult waited = await(executor.call("t2", new ToolCall("echo", Map.of("text", "never runs"))));
        assertEquals(ToolResult.Status.TIMEOUT, waited.status());
        assertTrue(waited.error().contains("waited for a free thread"), waited.error());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "answered at its deadline, not never");
        assertEquals(0, executor.queuedCalls(), "taken out of the queue");

        misbehaving.release.countDown();
        pollUntil(() -> executor.abandonedThreads() == 0, "the stuck threads come back");
        assertEquals("works", await(executor.call("t3", new ToolCall("echo", Map.of("text", "works")))).text());
    }

    @Test
    void tenMegabyteOutputIsCutInTheMiddleWithAMarker() throws Exception {
        int cap = 1_000;
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withOutputCap(cap));
        int chars = 10 * 1024 * 1024;
        ToolResult result = await(executor.call("t1", new ToolCall("flood", Map.of("chars", chars))));
        assertEquals(ToolResult.Status.OK, result.status());
        assertTrue(result.truncated());
        assertTrue(result.text().startsWith("HEADabc"), "the head is kept");
        assertTrue(result.text().endsWith("TAIL"), "the tail is kept");
        assertTrue(result.text().contains("characters truncated"), "a marker says what was cut");
        assertTrue(result.text().length() < 2 * cap, "length " + result.text().length());
        assertTrue(result.structured() instanceof String s && s.length() < 2 * cap, "structured output is capped too");
    }

    @Test
    void concurrencyIsLimitedAndAFullQueueRefusesCallsAsUnavailable() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withConcurrency(2, 1));
        List<CompletableFuture<ToolResult>> accepted = new ArrayList<>();
        for (int i = 0; i < 3; i++) accepted.add(executor.call("t" + i, new ToolCall("gate", Map.of())));
        pollUntil(() -> misbehaving.running.get() == 2 && executor.queuedCalls() == 1, "two calls run and one waits");
        ToolResult refused = await(executor.call("t9", new ToolCall("gate", Map.of())));
        assertEquals(ToolResult.Status.UNAVAILABLE, refused.status());
        assertTrue(refused.error().contains("busy: 2 calls running and 1 waiting"), refused.error());
        misbehaving.release.countDown();
        for (CompletableFuture<ToolResult> f : accepted) assertEquals("released", await(f).text());
        assertEquals(2, misbehaving.maxRunning.get(), "never more than the limit at once");
    }

    @Test
    void executeRunsATurnsCallsConcurrentlyAndAnswersInCallOrder() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        List<ToolCall> calls = List.of(new ToolCall("gate", Map.of()), new ToolCall("gate", Map.of()),
                new ToolCall("echo", Map.of("text", "third")));
        var stages = executor.execute("t1", calls);
        pollUntil(() -> misbehaving.running.get() == 2, "both gate calls run at the same time");
        misbehaving.release.countDown();
        List<String> texts = new ArrayList<>();
        for (var stage : stages) texts.add(await(stage.toCompletableFuture()).text());
        assertEquals(List.of("released", "released", "third"), texts);
    }

    @Test
    void pluginStateIsPerTrajectoryAndReleasedOnFinish() throws Exception {
        CounterPlugin plugin = new CounterPlugin();
        ToolExecutor executor = executor(ToolSuite.builder("stateful").add(plugin).build(), ExecutorSettings.defaults());
        ToolCall increment = new ToolCall("increment", Map.of());
        assertEquals("a=1", await(executor.call("a", increment)).text());
        assertEquals("a=2", await(executor.call("a", increment)).text());
        assertEquals("b=1", await(executor.call("b", increment)).text());
        assertEquals(2, executor.openTrajectories());
        executor.release("a").toCompletableFuture().get();
        assertEquals(Map.of("a", 1), plugin.closed);
        assertEquals(1, executor.openTrajectories());
        assertEquals("a=1", await(executor.call("a", increment)).text(), "a finished trajectory id starts afresh");
        assertEquals(2, plugin.opened.get("a"));
    }

    @Test
    void idleTrajectoriesAreReleasedByTheSweep() throws Exception {
        CounterPlugin plugin = new CounterPlugin();
        ToolExecutor executor = executor(ToolSuite.builder("stateful").add(plugin).build(),
                ExecutorSettings.defaults().withIdleTimeout(Duration.ofMillis(50)));
        assertEquals("idle=1", await(executor.call("idle", new ToolCall("increment", Map.of()))).text());
        pollUntil(() -> plugin.closed.containsKey("idle"), "the idle trajectory's session is closed");
        assertEquals(0, executor.openTrajectories());
    }

    @Test
    void metricsCountOutcomesAndLatencies() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults());
        await(executor.call("t", new ToolCall("echo", Map.of("text", "x"))));
        await(executor.call("t", new ToolCall("echo", Map.of("text", "y"))));
        await(executor.call("t", new ToolCall("echo", Map.of())));
        await(executor.call("t", new ToolCall("explode", Map.of("why", "z"))));
        var byTool = executor.metrics().snapshot();
        var echo = byTool.stream().filter(s -> s.tool().equals("echo")).findFirst().orElseThrow();
        assertEquals(2, echo.count(ToolResult.Status.OK));
        assertEquals(1, echo.count(ToolResult.Status.INVALID_ARGUMENTS));
        long[] buckets = echo.cumulativeBuckets();
        assertEquals(ToolMetrics.LATENCY_BOUNDS_MILLIS.size() + 1, buckets.length);
        assertEquals(3, buckets[buckets.length - 1], "the +Inf bucket counts every call");
        var explode = byTool.stream().filter(s -> s.tool().equals("explode")).findFirst().orElseThrow();
        assertEquals(1, explode.count(ToolResult.Status.ERROR));
    }

    @Test
    void closingCompletesUnfinishedCallsAsUnavailable() throws Exception {
        ToolExecutor executor = misbehavingExecutor(ExecutorSettings.defaults().withConcurrency(1, 4));
        CompletableFuture<ToolResult> running = executor.call("t", new ToolCall("gate", Map.of()));
        CompletableFuture<ToolResult> queued = executor.call("t", new ToolCall("echo", Map.of("text", "late")));
        pollUntil(() -> misbehaving.running.get() == 1, "the gate call runs");
        executor.close();
        assertEquals(ToolResult.Status.UNAVAILABLE, await(queued).status());
        ToolResult first = await(running);
        assertEquals(ToolResult.Status.UNAVAILABLE, first.status());
        assertNull(first.structured());
        assertEquals(ToolResult.Status.UNAVAILABLE, await(executor.call("t", new ToolCall("echo", Map.of("text", "x")))).status());
    }

    @Test
    void manyTrajectoriesAtOnceGetEveryResultAndKeepTheirOwnState() throws Exception {
        CounterPlugin plugin = new CounterPlugin();
        ToolSuite suite = ToolSuite.builder("mixed").add(plugin).addAnnotated(misbehaving).build();
        ToolExecutor executor = executor(suite, ExecutorSettings.defaults().withConcurrency(4, 1_000));
        Random random = new Random(7);
        Map<ToolResult.Status, Integer> expected = new EnumMap<>(ToolResult.Status.class);
        Map<String, Integer> incrementsPerTrajectory = new HashMap<>();
        List<CompletableFuture<ToolResult>> results = new ArrayList<>();
        for (int batch = 0; batch < 40; batch++) {
            String trajectory = "t" + random.nextInt(8);
            List<ToolCall> calls = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ToolCall call = switch (random.nextInt(5)) {
                    case 0 -> new ToolCall("echo", Map.of("text", "x"));
                    case 1 -> new ToolCall("explode", Map.of("why", "y"));
                    case 2 -> new ToolCall("echo", Map.of("text", 1));
                    case 3 -> new ToolCall("nope", Map.of());
                    default -> new ToolCall("increment", Map.of());
                };
                ToolResult.Status status = switch (call.name()) {
                    case "explode" -> ToolResult.Status.ERROR;
                    case "nope" -> ToolResult.Status.UNKNOWN_TOOL;
                    case "echo" -> call.arguments().get("text") instanceof String ? ToolResult.Status.OK : ToolResult.Status.INVALID_ARGUMENTS;
                    default -> ToolResult.Status.OK;
                };
                expected.merge(status, 1, Integer::sum);
                if (call.name().equals("increment")) incrementsPerTrajectory.merge(trajectory, 1, Integer::sum);
                calls.add(call);
            }
            executor.execute(trajectory, calls).forEach(stage -> results.add(stage.toCompletableFuture()));
        }
        Map<ToolResult.Status, Integer> actual = new EnumMap<>(ToolResult.Status.class);
        Map<String, Set<Object>> counterValues = new HashMap<>();
        for (CompletableFuture<ToolResult> future : results) {
            ToolResult result = await(future);
            actual.merge(result.status(), 1, Integer::sum);
            if (result.call().name().equals("increment")) {
                String trajectory = result.text().substring(0, result.text().indexOf('='));
                counterValues.computeIfAbsent(trajectory, t -> new HashSet<>()).add(result.structured());
            }
        }
        assertEquals(200, results.size());
        assertEquals(expected, actual, "every call answered once, with the outcome it deserved");
        incrementsPerTrajectory.forEach((trajectory, n) -> assertEquals(
                IntStream.rangeClosed(1, n).boxed().collect(Collectors.toSet()), counterValues.get(trajectory),
                "trajectory " + trajectory + " counted its own calls, none lost or doubled"));
        long recorded = executor.metrics().snapshot().stream().mapToLong(ToolMetrics.ToolSnapshot::totalCalls).sum();
        assertEquals(200, recorded);
        incrementsPerTrajectory.keySet().forEach(executor::finishTrajectory);
        incrementsPerTrajectory.keySet().forEach(t -> {
            assertEquals(1, plugin.opened.get(t), "one session per trajectory");
            assertEquals(1, plugin.closed.get(t), "and it is closed on finish");
        });
    }
}
