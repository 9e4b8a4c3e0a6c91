package dev.toolcoach.brain.taskjob;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a job's wall time went: seconds by phase, in the order the phases first ran (a phase run twice adds up). The job
 * writes them to {@link #FILE} ({@code wall_seconds} and {@code phases}), this session's only: a resumed job's skipped
 * phases are absent.
 */
public final class PhaseTimes {
    public static final String FILE = "times.json";
    public static final String MODEL = "model";
    public static final String EVALUATIONS = "evaluations";
    public static final String WARMUP = "warm-up";

    /** Work of a phase. */
    @FunctionalInterface
    interface Work {
        void run() throws IOException;
    }

    private final Map<String, Double> seconds = new LinkedHashMap<>();

    void time(String phase, Work work) throws IOException {
        long start = System.nanoTime();
        try {
            work.run();
        } finally {
            add(phase, start);
        }
    }

    /** Counts the time from {@code startNanos} ({@link System#nanoTime}) to now to {@code phase}. */
    void add(String phase, long startNanos) {
        seconds.merge(phase, (System.nanoTime() - startNanos) / 1e9, Double::sum);
    }

    /** Seconds by phase. */
    public Map<String, Double> seconds() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(seconds));
    }

    /** The record {@link #FILE} holds for a session that took {@code wallSeconds}. */
    Map<String, Object> record(double wallSeconds) {
        return Map.of("wall_seconds", wallSeconds, "phases", seconds());
    }

    /** "model 33 s, evaluations 61 s, ..., other 12 s" of a job that took {@code wallSeconds}: the rest is "other". */
    public String describe(double wallSeconds) {
        StringBuilder out = new StringBuilder();
        double counted = 0;
        for (Map.Entry<String, Double> e : seconds.entrySet()) {
            out.append(e.getKey()).append(' ').append(Math.round(e.getValue())).append(" s, ");
            counted += e.getValue();
        }
        return out.append("other ").append(Math.round(Math.max(0, wallSeconds - counted))).append(" s").toString();
    }
}
