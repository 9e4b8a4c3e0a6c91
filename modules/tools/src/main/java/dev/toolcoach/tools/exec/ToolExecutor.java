package dev.toolcoach.tools.exec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.OutputCap;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.schema.SchemaValidator;
import dev.toolcoach.tools.spi.InvalidArgumentsException;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one suite's tool calls: validates arguments against the tool's schema, executes on a bounded
 * pool with a per-call deadline, caps the output (text and structured), keeps per-trajectory plugin state until the
 * trajectory finishes or idles out, and counts outcomes and latencies.
 *
 * <p>Every call yields exactly one {@link ToolResult}: an unknown tool, invalid arguments, a throwing
 * or hanging tool, a full queue, or a shut-down executor each become a result with its status and a
 * message for the model. The deadline counts from submission, so a call that waits behind busy threads times out
 * too. A call still running at its deadline is interrupted and abandoned: its thread is replaced by a new one (up to
 * {@code maxAbandonedThreads} at a time, {@link #abandonedThreads()}), so tools that ignore interrupts cannot take
 * the whole pool; the thread rejoins the pool, and the pool shrinks back, when the tool finally returns. A trajectory
 * released (its rollout is over) has its calls still waiting or running cancelled the same way, so no CPU goes to a
 * rollout no one will read. The CPU time of each call's thread is counted per tool.
 */
public final class ToolExecutor implements ToolEnvironment, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ToolExecutor.class);
    private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();
    /** Metrics label for calls naming no tool of the suite, so hallucinated names cannot grow the label set. */
    static final String UNKNOWN_TOOL_LABEL = "_unknown";

    /** The suite served and its tools' schemas, replaced together ({@link #replaceSuite}), so a call sees one version. */
    private record Served(ToolSuite suite, Map<String, JsonNode> schemas) {
        static Served of(ToolSuite suite) {
            Map<String, JsonNode> schemas = new HashMap<>();
            suite.specs().forEach(spec -> schemas.put(spec.name(), spec.parameters()));
            return new Served(suite, Map.copyOf(schemas));
        }
    }

    private volatile Served served;
    private final ExecutorSettings settings;
    private final OutputCap outputCap;
    private final ThreadPoolExecutor pool;
    private final ScheduledExecutorService timer;
    private final Map<String, TrajectoryState> trajectories = new ConcurrentHashMap<>();
    private final Set<Execution> pending = ConcurrentHashMap.newKeySet();
    private final ToolMetrics metrics = new ToolMetrics();
    /** Guards the pool's size and {@link #abandoned}. */
    private final Object poolSize = new Object();
    private int abandoned;

    public ToolExecutor(ToolSuite suite, ExecutorSettings settings) {
        this.served = Served.of(suite);
        this.settings = settings;
        this.outputCap = new OutputCap(settings.outputCapChars());
        BlockingQueue<Runnable> waiting = settings.maxQueuedCalls() == 0
                ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(settings.maxQueuedCalls());
        this.pool = new ThreadPoolExecutor(settings.maxConcurrentCalls(), settings.maxConcurrentCalls(), 0, TimeUnit.MILLISECONDS,
                waiting, daemonThreads("tool-" + suite.name()));
        this.timer = Executors.newSingleThreadScheduledExecutor(daemonThreads("tool-" + suite.name() + "-timer"));
        long sweepMillis = Math.max(10, settings.trajectoryIdleTimeout().toMillis() / 4);
        timer.scheduleAtFixedRate(this::releaseIdleTrajectories, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    }

    public ToolSuite suite() {
        return served.suite();
    }

    /**
     * Serves another version of the same suite from now on: composites crystallised since the server started
     * (skills registered at run time). Calls already accepted finish on the tools they started with; trajectory state
     * and metrics carry on.
     */
    public void replaceSuite(ToolSuite next) {
        if (!next.name().equals(served.suite().name())) {
            throw new IllegalArgumentException("an executor of suite '" + served.suite().name() + "' cannot serve suite '" + next.name() + "'");
        }
        served = Served.of(next);
    }

    @Override
    public List<ToolSpec> specs() {
        return served.suite().specs();
    }

    @Override
    public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
        List<CompletionStage<ToolResult>> results = new ArrayList<>(calls.size());
        for (ToolCall call : calls) results.add(call(trajectoryId, call));
        return results;
    }

    @Override
    public CompletionStage<Void> release(String trajectoryId) {
        finishTrajectory(trajectoryId);
        return CompletableFuture.completedFuture(null);
    }

    /** Starts one call; the returned future always completes normally with the call's result. */
    public CompletableFuture<ToolResult> call(String trajectoryId, ToolCall call) {
        long startNanos = System.nanoTime();
        Served now = served;
        ToolSuite suite = now.suite();
        Tool tool = suite.tool(call.name()).orElse(null);
        if (tool == null) {
            return recorded(UNKNOWN_TOOL_LABEL, failed(call, ToolResult.Status.UNKNOWN_TOOL, "unknown tool '" + call.name()
                    + "'; suite '" + suite.name() + "' has: " + String.join(", ", suite.toolNames()), startNanos));
        }
        List<String> problems = SchemaValidator.validate(now.schemas().get(tool.name()), call.arguments());
        if (!problems.isEmpty()) {
            return recorded(tool.name(), failed(call, ToolResult.Status.INVALID_ARGUMENTS,
                    "invalid arguments for tool '" + tool.name() + "': " + String.join("; ", problems), startNanos));
        }
        TrajectoryState state = trajectories.compute(trajectoryId, (id, existing) -> {
            TrajectoryState s = existing == null || existing.isReleased() ? new TrajectoryState(id, startNanos) : existing;
            s.callStarted(startNanos);
            return s;
        });
        Execution execution = new Execution(tool, call, new ToolInvocation(trajectoryId, call.arguments(), state), startNanos);
        // the caller gets the stage after the bookkeeping, so metrics and trajectory state are current when it completes
        CompletableFuture<ToolResult> answered = execution.result.whenComplete((result, never) -> {
            pending.remove(execution);
            state.callEnded(System.nanoTime());
            metrics.record(tool.name(), result.status(), result.latencyMillis());
        });
        pending.add(execution);
        try {
            pool.execute(execution.task);
            execution.deadline = timer.schedule(execution::deadlinePassed, settings.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            execution.result.complete(failed(call, ToolResult.Status.UNAVAILABLE, pool.isShutdown()
                    ? "tool server of suite '" + suite.name() + "' is shut down"
                    : "tool server of suite '" + suite.name() + "' is busy: " + pool.getActiveCount() + " calls running and "
                    + pool.getQueue().size() + " waiting", startNanos));
        }
        return answered;
    }

    /**
     * Releases the trajectory's state now, or once its running calls end; its calls still waiting or running are
     * cancelled (answered CANCELLED, a running tool interrupted): the rollout that made them is over.
     */
    public void finishTrajectory(String trajectoryId) {
        TrajectoryState state = trajectories.remove(trajectoryId);
        if (state != null) state.finish();
        List<Execution> calls = pending.stream().filter(e -> e.invocation.trajectoryId().equals(trajectoryId))
                // the waiting first: the thread that replaces a stopped running call would take them up at once
                .sorted(Comparator.comparing(e -> !e.waiting())).toList();
        for (Execution execution : calls) {
            execution.stop(ToolResult.Status.CANCELLED, "tool '" + execution.tool.name()
                    + "' was cancelled: its rollout ended before the call finished");
        }
    }

    /** Releases every trajectory idle longer than the idle timeout; returns how many. Also runs periodically. */
    public int releaseIdleTrajectories() {
        long now = System.nanoTime();
        long idleNanos = settings.trajectoryIdleTimeout().toNanos();
        List<TrajectoryState> idle = new ArrayList<>();
        for (String id : trajectories.keySet()) {
            // decided inside compute, so a call starting for this trajectory at the same moment cannot slip in
            trajectories.computeIfPresent(id, (key, state) -> {
                if (!state.idleFor(idleNanos, now)) return state;
                idle.add(state);
                return null;
            });
        }
        idle.forEach(TrajectoryState::release);
        return idle.size();
    }

    public int openTrajectories() {
        return trajectories.size();
    }

    public int runningCalls() {
        return pool.getActiveCount();
    }

    public int queuedCalls() {
        return pool.getQueue().size();
    }

    /** Threads of calls that overran their deadline and still run, each replaced by a new pool thread. */
    public int abandonedThreads() {
        synchronized (poolSize) {
            return abandoned;
        }
    }

    public ToolMetrics metrics() {
        return metrics;
    }

    /** Stops the pool; calls not finished yet end as UNAVAILABLE, and all trajectory state is released. */
    @Override
    public void close() {
        // refuse new calls first, answer every accepted one, and only then interrupt the running tools,
        // so an interrupted tool's own error cannot overtake the shutdown answer
        pool.shutdown();
        timer.shutdownNow();
        for (Execution execution : List.copyOf(pending)) {
            execution.result.complete(failed(execution.call, ToolResult.Status.UNAVAILABLE,
                    "tool server of suite '" + suite().name() + "' shut down before the call finished", execution.startNanos));
        }
        pool.shutdownNow();
        List.copyOf(trajectories.keySet()).forEach(this::finishTrajectory);
    }

    private CompletableFuture<ToolResult> recorded(String label, ToolResult result) {
        metrics.record(label, result.status(), result.latencyMillis());
        return CompletableFuture.completedFuture(result);
    }

    private ToolResult failed(ToolCall call, ToolResult.Status status, String message, long startNanos) {
        String capped = outputCap.truncate(message);
        return ToolResult.failed(call, status, capped, millisSince(startNanos));
    }

    private ToolResult succeeded(ToolCall call, ToolOutput output, long startNanos) {
        return outputCap.apply(ToolResult.ok(call, output.text(), output.structured(), millisSince(startNanos), false));
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread t = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Gives the pool one more thread in place of an abandoned one, unless as many as allowed are abandoned already. */
    private boolean replaceThread() {
        synchronized (poolSize) {
            if (abandoned >= settings.maxAbandonedThreads() || pool.isShutdown()) return false;
            abandoned++;
            pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
            pool.setCorePoolSize(pool.getCorePoolSize() + 1);
            return true;
        }
    }

    /** An abandoned thread came back: the pool shrinks to its size again (the spare thread ends when idle). */
    private void threadReturned() {
        synchronized (poolSize) {
            abandoned--;
            if (pool.isShutdown()) return;
            pool.setCorePoolSize(pool.getCorePoolSize() - 1);
            pool.setMaximumPoolSize(pool.getMaximumPoolSize() - 1);
        }
    }

    /** One accepted call: runs the tool and completes {@link #result} exactly once, by its deadline at the latest. */
    private final class Execution implements Runnable {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int ENDED = 2;

        final Tool tool;
        final ToolCall call;
        final ToolInvocation invocation;
        final long startNanos;
        final CompletableFuture<ToolResult> result = new CompletableFuture<>();
        // cancel(true) on a FutureTask interrupts only while this very task runs, never a later one on the same thread
        final FutureTask<Void> task = new FutureTask<>(this, null);
        volatile ScheduledFuture<?> deadline;
        /** WAITING → RUNNING → ENDED, or WAITING → ENDED when the deadline passed before a thread took it; guarded by this. */
        private int state = WAITING;
        private boolean replaced;

        Execution(Tool tool, ToolCall call, ToolInvocation invocation, long startNanos) {
            this.tool = tool;
            this.call = call;
            this.invocation = invocation;
            this.startNanos = startNanos;
        }

        @Override
        public void run() {
            synchronized (this) {
                if (state != WAITING) return;
                state = RUNNING;
            }
            long cpuStart = THREAD_CPU.getCurrentThreadCpuTime();
            ToolResult answer = null;
            try {
                answer = invoke();
            } finally {
                // counted when the tool returns, also after a deadline or a cancel: the CPU was spent all the same
                long cpu = THREAD_CPU.getCurrentThreadCpuTime() - cpuStart;
                metrics.recordCpu(tool.name(), cpu);
                if (answer != null) result.complete(answer.withCpuMillis(TimeUnit.NANOSECONDS.toMillis(cpu)));
                ScheduledFuture<?> d = deadline;
                if (d != null) d.cancel(false);
                boolean returned;
                synchronized (this) {
                    state = ENDED;
                    returned = replaced;
                }
                if (returned) threadReturned();
            }
        }

        /** The call's time is up: it is answered TIMEOUT; a running tool is interrupted and its thread abandoned. */
        synchronized boolean waiting() {
            return state == WAITING;
        }

        void deadlinePassed() {
            String within = "tool '" + tool.name() + "' did not finish within " + settings.callTimeout().toMillis() + " ms";
            stop(ToolResult.Status.TIMEOUT, within + ": it waited for a free thread all that time (the tool server is busy)",
                    within + " and was interrupted");
        }

        void stop(ToolResult.Status status, String message) {
            stop(status, message, message);
        }

        /**
         * Answers the call with {@code status} unless it has ended: a waiting call leaves the queue ({@code ifWaiting}),
         * a running one is interrupted and its thread abandoned ({@code ifRunning}).
         */
        void stop(ToolResult.Status status, String ifWaiting, String ifRunning) {
            String message = ifRunning;
            synchronized (this) {
                if (state == ENDED) return;
                if (state == WAITING) {
                    state = ENDED;
                    pool.remove(task);
                    ScheduledFuture<?> d = deadline;
                    if (d != null) d.cancel(false);
                    result.complete(failed(call, status, ifWaiting, startNanos));
                    return;
                }
                if (result.isDone()) return; // answered just now, or the executor closed
                replaced = replaceThread(); // before the answer, so whoever hears it finds the pool whole again
                if (!result.complete(failed(call, status, message, startNanos))) {
                    if (replaced) threadReturned(); // the tool answered first: its thread is not lost
                    replaced = false;
                    return;
                }
                task.cancel(true);
            }
            if (replaced) LOG.warn("tool '{}' stopped ({}); its thread is abandoned and replaced until it returns", tool.name(), message);
            else LOG.warn("tool '{}' stopped ({}); {} threads are abandoned already, so its thread is not replaced",
                    tool.name(), message, settings.maxAbandonedThreads());
        }

        private ToolResult invoke() {
            try {
                return succeeded(call, tool.call(invocation), startNanos);
            } catch (InvalidArgumentsException e) {
                return failed(call, ToolResult.Status.INVALID_ARGUMENTS, e.getMessage(), startNanos);
            } catch (ToolException e) {
                return failed(call, ToolResult.Status.ERROR, e.getMessage(), startNanos);
            } catch (Throwable e) {
                // the model sees the failure's type and message; the stack trace is for the operator's log
                if (!result.isDone()) LOG.warn("tool '{}' failed for trajectory {}", tool.name(), invocation.trajectoryId(), e);
                String message = e.getMessage();
                return failed(call, ToolResult.Status.ERROR, "tool '" + tool.name() + "' failed: " + e.getClass().getSimpleName()
                        + (message == null || message.isBlank() ? "" : ": " + message), startNanos);
            }
        }
    }
}
