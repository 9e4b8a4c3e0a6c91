package dev.toolcoach.cluster.toolserver;

import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.Extension;
import akka.actor.ExtensionIdProvider;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Adapter;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.exec.ToolMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;

import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.ToIntFunction;

/**
 * Exports the executors of the tool servers on one node to the node's Prometheus registry: calls by
 * suite, tool and status, a latency histogram per tool, and running/queued calls, open
 * trajectories and abandoned threads per suite. Read from the executors at scrape time, so nothing is counted twice.
 * One collector per actor system (an extension), as every server of the node shares metric names.
 */
public final class ToolServerMetrics implements Extension, MultiCollector {

    public static final Id ID = new Id();

    /** Upper bounds of the latency histogram in seconds, from the executor's millisecond bounds, +Inf last. */
    private static final double[] LATENCY_BOUNDS_SECONDS = latencyBoundsSeconds();

    private final Map<String, ToolExecutor> executors = new ConcurrentSkipListMap<>();

    private ToolServerMetrics(ExtendedActorSystem system) {
        ToolCoachMetrics.get(system).registry().register(this);
    }

    public static ToolServerMetrics get(ActorSystem<?> system) {
        return ID.get(Adapter.toClassic(system));
    }

    /** Starts exporting the suite's executor; a suite hosted twice on one node would be a configuration error. */
    void add(String suite, ToolExecutor executor) {
        if (executors.putIfAbsent(suite, executor) != null) {
            throw new IllegalStateException("tool suite '" + suite + "' is already hosted on this node");
        }
    }

    void remove(String suite) {
        executors.remove(suite);
    }

    @Override
    public MetricSnapshots collect() {
        CounterSnapshot.Builder calls = CounterSnapshot.builder().name("toolcoach_tool_calls")
                .help("Tool calls finished on this node, by suite, tool and status");
        HistogramSnapshot.Builder latency = HistogramSnapshot.builder().name("toolcoach_tool_call_latency_seconds")
                .unit(Unit.SECONDS).help("Latency of tool calls on this node, by suite and tool");
        CounterSnapshot.Builder cpu = CounterSnapshot.builder().name("toolcoach_tool_cpu_seconds").unit(Unit.SECONDS)
                .help("CPU time tool calls' threads spent in the tool on this node, by suite and tool");
        executors.forEach((suite, executor) -> {
            for (ToolMetrics.ToolSnapshot tool : executor.metrics().snapshot()) {
                tool.calls().forEach((status, count) -> calls.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(Labels.of("suite", suite, "tool", tool.tool(), "status", status.name()))
                        .value(count).build()));
                latency.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                        .labels(Labels.of("suite", suite, "tool", tool.tool()))
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(LATENCY_BOUNDS_SECONDS,
                                perBucket(tool.cumulativeBuckets())))
                        .sum(tool.latencySumMillis() / 1000.0)
                        .build());
                cpu.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("suite", suite, "tool", tool.tool()))
                        .value(tool.cpuSumNanos() / 1e9).build());
            }
        });
        return MetricSnapshots.of(calls.build(), latency.build(), cpu.build(),
                gauge("toolcoach_tool_calls_running", "Tool calls running now, by suite", ToolExecutor::runningCalls),
                gauge("toolcoach_tool_calls_queued", "Tool calls waiting for a thread, by suite", ToolExecutor::queuedCalls),
                gauge("toolcoach_tool_trajectories_open", "Trajectories holding tool state, by suite",
                        ToolExecutor::openTrajectories),
                gauge("toolcoach_tool_threads_abandoned", "Threads of calls past their deadline still running (replaced), by suite",
                        ToolExecutor::abandonedThreads));
    }

    private GaugeSnapshot gauge(String name, String help, ToIntFunction<ToolExecutor> value) {
        GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        executors.forEach((suite, executor) -> gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("suite", suite)).value(value.applyAsInt(executor)).build()));
        return gauge.build();
    }

    /** Prometheus' model takes the count of each bucket; the executor keeps them cumulative. */
    private static long[] perBucket(long[] cumulative) {
        long[] counts = new long[cumulative.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]);
        }
        return counts;
    }

    private static double[] latencyBoundsSeconds() {
        double[] bounds = new double[ToolMetrics.LATENCY_BOUNDS_MILLIS.size() + 1];
        for (int i = 0; i < bounds.length - 1; i++) {
            bounds[i] = ToolMetrics.LATENCY_BOUNDS_MILLIS.get(i) / 1000.0;
        }
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        return bounds;
    }

    public static final class Id extends AbstractExtensionId<ToolServerMetrics> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public ToolServerMetrics createExtension(ExtendedActorSystem system) {
            return new ToolServerMetrics(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }
}
