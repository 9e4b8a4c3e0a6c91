package dev.toolcoach.retrieval.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Recall@k of a retriever over a set of cases, overall and per case group, with its query latency.
 *
 * @param ks             the cut-offs measured, ascending
 * @param cases          number of cases asked
 * @param hits           per k, the cases whose relevant tools were all in the top k
 * @param hitsByGroup    per group, hits per k (same order as {@code ks})
 * @param casesByGroup   per group, the number of cases
 * @param latencyNanos   each query's wall time, in case order
 */
public record RecallReport(List<Integer> ks, int cases, List<Integer> hits, Map<String, List<Integer>> hitsByGroup,
                           Map<String, Integer> casesByGroup, List<Long> latencyNanos) {

    public RecallReport {
        ks = List.copyOf(ks);
        hits = List.copyOf(hits);
        hitsByGroup = Map.copyOf(hitsByGroup);
        casesByGroup = Map.copyOf(casesByGroup);
        latencyNanos = List.copyOf(latencyNanos);
    }

    /** The share of cases with every relevant tool in the top {@code k}; {@code k} must be one of {@link #ks}. */
    public double recallAt(int k) {
        return ratio(hits.get(indexOf(k)), cases);
    }

    public double recallAt(String group, int k) {
        return ratio(hitsByGroup.get(group).get(indexOf(k)), casesByGroup.get(group));
    }

    /** The latency at percentile {@code p} (0-100, nearest rank), in microseconds. */
    public double latencyMicros(double p) {
        if (latencyNanos.isEmpty()) return 0;
        List<Long> sorted = new ArrayList<>(latencyNanos);
        sorted.sort(null);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1))) / 1000.0;
    }

    /** A table: recall@k overall and per group, then latency p50 / p99. */
    public String format() {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-10s %6s", "group", "cases"));
        ks.forEach(k -> out.append(String.format(Locale.ROOT, " %9s", "recall@" + k)));
        out.append('\n').append(row("all", cases, hits));
        new TreeMap<>(hitsByGroup).forEach((group, h) -> out.append(row(group, casesByGroup.get(group), h)));
        out.append(String.format(Locale.ROOT, "latency per query: p50 %.1f us, p99 %.1f us (%d queries)%n",
                latencyMicros(50), latencyMicros(99), latencyNanos.size()));
        return out.toString();
    }

    private String row(String group, int n, List<Integer> h) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-10s %6d", group, n));
        h.forEach(count -> line.append(String.format(Locale.ROOT, " %9.3f", ratio(count, n))));
        return line.append('\n').toString();
    }

    private int indexOf(int k) {
        int i = ks.indexOf(k);
        if (i < 0) throw new IllegalArgumentException("recall@" + k + " was not measured; measured: " + ks);
        return i;
    }

    private static double ratio(int count, int total) {
        return total == 0 ? 0 : (double) count / total;
    }
}
