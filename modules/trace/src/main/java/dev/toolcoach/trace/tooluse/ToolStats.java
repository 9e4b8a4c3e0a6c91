package dev.toolcoach.trace.tooluse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How one tool did in one context over a set of tool-use records: what succeeded, what failed and how, what was retried
 * (the same tool again at once with other arguments) and what was overused (the same call again in a trajectory).
 *
 * @param context      the context key, or {@value #ALL_CONTEXTS} for a tool over every context
 * @param tool         the tool
 * @param calls        calls made
 * @param successes    calls that succeeded
 * @param failures     failed calls by error kind (only kinds that occurred)
 * @param retries      calls that were retries
 * @param repeats      calls that repeated an earlier identical call of the same trajectory (overuse)
 * @param trajectories distinct traces that called the tool
 * @param meanLatencyMillis mean latency of the calls
 */
public record ToolStats(String context, String tool, long calls, long successes,
                        Map<ToolUseRecord.Outcome, Long> failures, long retries, long repeats, long trajectories,
                        double meanLatencyMillis) {
    public static final String ALL_CONTEXTS = "*";

    public ToolStats {
        EnumMap<ToolUseRecord.Outcome, Long> copy = new EnumMap<>(ToolUseRecord.Outcome.class);
        copy.putAll(failures);
        failures = Collections.unmodifiableMap(copy);
    }

    public long failed() {
        return calls - successes;
    }

    public double successRate() {
        return calls == 0 ? 0 : (double) successes / calls;
    }

    /** Calls per trajectory that used the tool. */
    public double callsPerTrajectory() {
        return trajectories == 0 ? 0 : (double) calls / trajectories;
    }

    /**
     * The statistics of every (context, tool) pair, sorted by context then tool; with {@code perContext} false, one
     * line per tool over all contexts ({@value #ALL_CONTEXTS}).
     */
    public static List<ToolStats> of(List<ToolUseRecord> records, boolean perContext) {
        Map<List<String>, Acc> byKey = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0)).thenComparing(k -> k.get(1)));
        for (ToolUseRecord r : records) {
            byKey.computeIfAbsent(List.of(perContext ? r.context() : ALL_CONTEXTS, r.tool()), k -> new Acc()).add(r);
        }
        List<ToolStats> out = new ArrayList<>(byKey.size());
        byKey.forEach((k, a) -> out.add(new ToolStats(k.get(0), k.get(1), a.calls, a.successes, a.failures, a.retries,
                a.repeats, a.traces.size(), a.calls == 0 ? 0 : (double) a.latency / a.calls)));
        return out;
    }

    private static final class Acc {
        long calls;
        long successes;
        long retries;
        long repeats;
        long latency;
        final Map<ToolUseRecord.Outcome, Long> failures = new LinkedHashMap<>();
        final Set<String> traces = new HashSet<>();

        void add(ToolUseRecord r) {
            calls++;
            if (r.success()) successes++;
            else failures.merge(r.outcome(), 1L, Long::sum);
            if (r.retry()) retries++;
            if (r.repeat()) repeats++;
            latency += r.latencyMillis();
            traces.add(r.run() + '\u0000' + r.traceId());
        }
    }
}
