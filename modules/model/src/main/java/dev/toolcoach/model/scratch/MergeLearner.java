package dev.toolcoach.model.scratch;

import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Learns byte-level BPE merges from a corpus: repeatedly join the most frequent adjacent pair of
 * symbols. Digits never join anything, so numbers stay one token per digit (a small model copies them
 * digit by digit); special tokens are cut out first, as the tokenizer does.
 */
final class MergeLearner {

    private MergeLearner() {
    }

    /**
     * @param maxMerges most merges to learn
     * @param minCount  a pair seen fewer times than this is not worth a token
     * @return the merges in the order the tokenizer must apply them
     */
    static List<Merge> learn(List<String> texts, List<String> specials, int maxMerges, int minCount) {
        List<Run> runs = runs(texts, specials);
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
                // ties go to the lexically smaller pair, so the result never depends on hash order
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

    /** The corpus in the byte-level alphabet, cut at special tokens into distinct runs with how often each occurs. */
    private static List<Run> runs(List<String> texts, List<String> specials) {
        Map<String, Long> counts = new TreeMap<>();
        for (String text : texts) {
            int from = 0;
            int i = 0;
            while (i <= text.length()) {
                String special = i < text.length() ? specialAt(text, i, specials) : "";
                if (special == null) {
                    i++;
                    continue;
                }
                if (i > from) counts.merge(ByteLevelTokenizerJson.toByteLevel(text.substring(from, i)), 1L, Long::sum);
                i += Math.max(1, special.length());
                from = i;
            }
        }
        return counts.entrySet().stream().map(e -> new Run(e.getKey(), e.getValue())).toList();
    }

    private static String specialAt(String text, int at, List<String> specials) {
        for (String s : specials) {
            if (text.startsWith(s, at)) return s;
        }
        return null;
    }

    /** One distinct run as its current symbols (single byte-level characters at first). */
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
