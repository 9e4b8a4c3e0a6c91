package dev.toolcoach.trace.tooluse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's trajectories as their tool-use records show them: how many called tools, how many of those were solved, and
 * what their calls cost — the figures that compare two trainings' tool use (calls per solved task, failed calls,
 * retries). A trajectory is solved when its episode reward is at least 1 (full marks: an evaluation's task reward; in
 * training, the reward trained on). Only trajectories that called a tool leave records, so one solved without any call
 * is not counted here: where {@code solved} equals the evaluation's {@code correct}, there was none.
 *
 * @param run          the run id of the records ({@code <run>/eval/<phase>} for an evaluation), or "-" when unknown
 * @param trajectories trajectories with at least one call
 * @param scored       of those, trajectories whose records carry an episode reward
 * @param solved       of those, trajectories with an episode reward of at least 1
 * @param calls        calls made by all the trajectories
 * @param failed       calls that failed (any error kind)
 * @param retries      calls that were retries
 * @param repeats      calls that repeated an earlier identical call of their trajectory
 * @param callsPerSolved mean calls of a solved trajectory (NaN without one)
 * @param callsPerSolvedCi95 its normal-approximation 95% interval, low and high (the mean twice with one solved trajectory)
 */
public record RunToolUse(String run, long trajectories, long scored, long solved, long calls, long failed, long retries,
                         long repeats, double callsPerSolved, List<Double> callsPerSolvedCi95) {
    /** A solved trajectory has at least this episode reward (full marks). */
    public static final double SOLVED = 1.0;
    public static final String UNKNOWN_RUN = "-";

    public RunToolUse {
        callsPerSolvedCi95 = List.copyOf(callsPerSolvedCi95);
    }

    public double callsPerTrajectory() {
        return trajectories == 0 ? 0 : (double) calls / trajectories;
    }

    public double failedPerTrajectory() {
        return trajectories == 0 ? 0 : (double) failed / trajectories;
    }

    /** One summary per run id, in the order the runs first appear in {@code records}. */
    public static List<RunToolUse> of(List<ToolUseRecord> records) {
        Map<String, Map<String, List<ToolUseRecord>>> byRun = new LinkedHashMap<>();
        for (ToolUseRecord r : records) {
            String run = r.run() == null ? UNKNOWN_RUN : r.run();
            byRun.computeIfAbsent(run, k -> new LinkedHashMap<>()).computeIfAbsent(r.traceId(), k -> new ArrayList<>()).add(r);
        }
        List<RunToolUse> out = new ArrayList<>(byRun.size());
        byRun.forEach((run, traces) -> out.add(summary(run, traces.values())));
        return out;
    }

    private static RunToolUse summary(String run, java.util.Collection<List<ToolUseRecord>> traces) {
        long scored = 0;
        long calls = 0;
        long failed = 0;
        long retries = 0;
        long repeats = 0;
        List<Integer> solvedCalls = new ArrayList<>();
        for (List<ToolUseRecord> trace : traces) {
            Double reward = trace.get(0).episodeReward();
            if (reward != null) scored++;
            if (reward != null && reward >= SOLVED) solvedCalls.add(trace.size());
            calls += trace.size();
            for (ToolUseRecord r : trace) {
                if (!r.success()) failed++;
                if (r.retry()) retries++;
                if (r.repeat()) repeats++;
            }
        }
        int n = solvedCalls.size();
        double mean = solvedCalls.stream().mapToInt(Integer::intValue).average().orElse(Double.NaN);
        double half = 0;
        if (n > 1) {
            double variance = solvedCalls.stream().mapToDouble(c -> (c - mean) * (c - mean)).sum() / (n - 1);
            half = 1.96 * Math.sqrt(variance / n);
        }
        return new RunToolUse(run, traces.size(), scored, n, calls, failed, retries, repeats, mean, List.of(mean - half, mean + half));
    }
}
