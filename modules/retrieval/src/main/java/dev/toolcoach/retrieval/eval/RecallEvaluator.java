package dev.toolcoach.retrieval.eval;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.ToolRetriever;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Asks a retriever each case once for its top max(k) tools and counts, per k, the cases whose
 * relevant tools all made the top k. A relevant tool counts only as the exact catalog entry (a
 * same-named tool with another schema is a miss). Each query is timed.
 */
public final class RecallEvaluator {

    private final List<Integer> ks;

    /** @param ks the cut-offs to measure, ascending and positive, e.g. 1, 3, 5, 10 */
    public RecallEvaluator(List<Integer> ks) {
        if (ks.isEmpty()) throw new IllegalArgumentException("no cut-off k given");
        for (int i = 0; i < ks.size(); i++) {
            if (ks.get(i) < 1 || (i > 0 && ks.get(i) <= ks.get(i - 1))) {
                throw new IllegalArgumentException("cut-offs must be positive and ascending, got " + ks);
            }
        }
        this.ks = List.copyOf(ks);
    }

    public RecallReport evaluate(ToolRetriever retriever, List<RetrievalCase> cases) {
        int maxK = ks.get(ks.size() - 1);
        int[] hits = new int[ks.size()];
        Map<String, int[]> groupHits = new LinkedHashMap<>();
        Map<String, Integer> groupCases = new HashMap<>();
        List<Long> latencies = new ArrayList<>(cases.size());
        for (RetrievalCase c : cases) {
            long start = System.nanoTime();
            List<ToolSpec> found = retriever.tools(c.query(), maxK);
            latencies.add(System.nanoTime() - start);
            int[] inGroup = groupHits.computeIfAbsent(c.group(), g -> new int[ks.size()]);
            groupCases.merge(c.group(), 1, Integer::sum);
            for (int i = 0; i < ks.size(); i++) {
                if (allWithin(c.relevant(), found, ks.get(i))) {
                    hits[i]++;
                    inGroup[i]++;
                }
            }
        }
        Map<String, List<Integer>> hitsByGroup = new HashMap<>();
        groupHits.forEach((g, h) -> hitsByGroup.put(g, counts(h)));
        return new RecallReport(ks, cases.size(), counts(hits), hitsByGroup, groupCases, latencies);
    }

    private static boolean allWithin(List<ToolSpec> relevant, List<ToolSpec> found, int k) {
        return Set.copyOf(found.subList(0, Math.min(k, found.size()))).containsAll(relevant);
    }

    private static List<Integer> counts(int[] values) {
        List<Integer> out = new ArrayList<>(values.length);
        for (int v : values) out.add(v);
        return out;
    }
}
