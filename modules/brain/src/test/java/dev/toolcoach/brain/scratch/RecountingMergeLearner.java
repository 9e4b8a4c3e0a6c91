package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge learner as it was before it counted incrementally, the reference {@link MergeLearner} must match merge
 * for merge: every merge recounts every adjacent pair of every run, and rewrites every run.
 */
final class RecountingMergeLearner {

    private RecountingMergeLearner() {
    }

    static List<Merge> learn(List<String> texts, List<String> specials, int maxMerges, int minCount) {
        List<Run> runs = MergeLearner.runs(texts, specials).entrySet().stream().map(e -> new Run(e.getKey(), e.getValue())).toList();
        List<Merge> merges = new ArrayList<>();
        while (merges.size() < maxMerges) {
            Map<Merge, Long> counts = new HashMap<>();
            for (Run r : runs) {
                for (int i = 0; i + 1 < r.symbols.size(); i++) {
                    if (joinable(r.symbols.get(i)) && joinable(r.symbols.get(i + 1))) {
                        counts.merge(new Merge(r.symbols.get(i), r.symbols.get(i + 1)), r.count, Long::sum);
                    }
                }
            }
            Merge best = null;
            long bestCount = minCount - 1;
            for (Map.Entry<Merge, Long> e : counts.entrySet()) {
                if (e.getValue() > bestCount || (e.getValue() == bestCount && best != null && smaller(e.getKey(), best))) {
                    best = e.getKey();
                    bestCount = e.getValue();
                }
            }
            if (best == null) break;
            merges.add(best);
            for (Run r : runs) r.apply(best);
        }
        return merges;
    }

    private static boolean joinable(String symbol) {
        return !(symbol.length() == 1 && symbol.charAt(0) >= '0' && symbol.charAt(0) <= '9');
    }

    private static boolean smaller(Merge a, Merge b) {
        int c = a.left().compareTo(b.left());
        return c != 0 ? c < 0 : a.right().compareTo(b.right()) < 0;
    }

    private static final class Run {
        final long count;
        List<String> symbols = new ArrayList<>();

        Run(String byteLevelText, long count) {
            this.count = count;
            byteLevelText.chars().forEach(c -> symbols.add(String.valueOf((char) c)));
        }

        void apply(Merge merge) {
            List<String> out = new ArrayList<>(symbols.size());
            for (int i = 0; i < symbols.size(); i++) {
                if (i + 1 < symbols.size() && symbols.get(i).equals(merge.left()) && symbols.get(i + 1).equals(merge.right())) {
                    out.add(merge.merged());
                    i++;
                } else {
                    out.add(symbols.get(i));
                }
            }
            symbols = out;
        }
    }
}
