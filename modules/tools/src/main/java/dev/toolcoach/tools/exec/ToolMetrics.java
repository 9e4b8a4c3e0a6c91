package dev.toolcoach.tools.exec;

import dev.toolcoach.trace.ToolResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-tool call counts by outcome and a latency histogram, shaped for Prometheus export
 * (cumulative buckets with upper bounds in milliseconds, a sum and a count). Lock-free to record.
 */
public final class ToolMetrics {

    /** Histogram upper bounds in milliseconds; a last implicit bucket is +Inf. */
    public static final List<Long> LATENCY_BOUNDS_MILLIS = List.of(1L, 2L, 5L, 10L, 25L, 50L, 100L, 250L, 500L,
            1_000L, 2_500L, 5_000L, 10_000L, 30_000L);

    private final Map<String, ToolStats> byTool = new ConcurrentHashMap<>();

    void record(String tool, ToolResult.Status status, long latencyMillis) {
        byTool.computeIfAbsent(tool, t -> new ToolStats()).record(status, latencyMillis);
    }

    /** CPU time a call's thread spent in the tool, counted when the tool returns (after its answer, if it overran). */
    void recordCpu(String tool, long cpuNanos) {
        byTool.computeIfAbsent(tool, t -> new ToolStats()).cpuNanos.add(Math.max(0, cpuNanos));
    }

    /** A consistent-enough copy for export (each counter is read once; counters only grow). */
    public List<ToolSnapshot> snapshot() {
        List<ToolSnapshot> snapshots = new ArrayList<>();
        byTool.forEach((tool, stats) -> snapshots.add(stats.snapshot(tool)));
        snapshots.sort((a, b) -> a.tool().compareTo(b.tool()));
        return snapshots;
    }

    /**
     * One tool's figures.
     *
     * @param calls             calls by outcome
     * @param cumulativeBuckets calls with latency &lt;= each bound of {@link #LATENCY_BOUNDS_MILLIS}, then the total (+Inf)
     * @param latencySumMillis  sum of all latencies
     * @param cpuSumNanos       CPU time the calls' threads spent in the tool (calls that never ran spent none)
     */
    public record ToolSnapshot(String tool, Map<ToolResult.Status, Long> calls, long[] cumulativeBuckets, long latencySumMillis,
                               long cpuSumNanos) {
        public ToolSnapshot {
            calls = Map.copyOf(calls);
            cumulativeBuckets = cumulativeBuckets.clone();
        }

        @Override
        public long[] cumulativeBuckets() {
            return cumulativeBuckets.clone();
        }

        public long totalCalls() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        public long count(ToolResult.Status status) {
            return calls.getOrDefault(status, 0L);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ToolSnapshot s && tool.equals(s.tool) && calls.equals(s.calls)
                    && Arrays.equals(cumulativeBuckets, s.cumulativeBuckets) && latencySumMillis == s.latencySumMillis
                    && cpuSumNanos == s.cpuSumNanos;
        }

        @Override
        public int hashCode() {
            return tool.hashCode() * 31 + Arrays.hashCode(cumulativeBuckets);
        }

        @Override
        public String toString() {
            return "ToolSnapshot[" + tool + " " + calls + " sum=" + latencySumMillis + "ms cpu=" + cpuSumNanos / 1_000_000 + "ms]";
        }
    }

    private static final class ToolStats {
        private final Map<ToolResult.Status, LongAdder> calls = new EnumMap<>(ToolResult.Status.class);
        private final LongAdder[] buckets = new LongAdder[LATENCY_BOUNDS_MILLIS.size() + 1];
        private final LongAdder latencySum = new LongAdder();
        private final LongAdder cpuNanos = new LongAdder();

        ToolStats() {
            for (ToolResult.Status s : ToolResult.Status.values()) calls.put(s, new LongAdder());
            for (int i = 0; i < buckets.length; i++) buckets[i] = new LongAdder();
        }

        void record(ToolResult.Status status, long latencyMillis) {
            calls.get(status).increment();
            latencySum.add(latencyMillis);
            int bucket = 0;
            while (bucket < LATENCY_BOUNDS_MILLIS.size() && latencyMillis > LATENCY_BOUNDS_MILLIS.get(bucket)) bucket++;
            buckets[bucket].increment();
        }

        ToolSnapshot snapshot(String tool) {
            Map<ToolResult.Status, Long> counts = new EnumMap<>(ToolResult.Status.class);
            calls.forEach((status, adder) -> {
                long n = adder.sum();
                if (n > 0) counts.put(status, n);
            });
            long[] cumulative = new long[buckets.length];
            long running = 0;
            for (int i = 0; i < buckets.length; i++) {
                running += buckets[i].sum();
                cumulative[i] = running;
            }
            return new ToolSnapshot(tool, counts, cumulative, latencySum.sum(), cpuNanos.sum());
        }
    }
}
