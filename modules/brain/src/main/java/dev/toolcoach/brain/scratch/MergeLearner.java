package dev.toolcoach.brain.scratch;

import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson.Merge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Learns byte-level BPE merges from a corpus: repeatedly join the most frequent adjacent pair of
 * symbols (ties to the lexically smaller pair, so the result never depends on hash order). Digits never
 * join anything, so numbers stay one token per digit (a small model copies them digit by digit); special
 * tokens are cut out first, as the tokenizer does.
 *
 * <p>Incremental: the pairs are counted once, and a merge updates only the counts around its own
 * occurrences, in the runs an index says contain the pair; a heap keeps the best pair on top. Recounting
 * every pair of the corpus for every merge allocated gigabytes for the main job's vocabulary, which
 * grew the heap for the rest of the job.
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
        Pairs pairs = new Pairs(runs(texts, specials));
        List<Merge> merges = new ArrayList<>();
        long least = Math.max(1, minCount); // a count of 0 is a pair that no longer occurs
        while (merges.size() < maxMerges) {
            int best = pairs.best();
            if (best < 0 || pairs.count(best) < least) break;
            merges.add(pairs.merge(best));
        }
        return merges;
    }

    /** The corpus in the byte-level alphabet, cut at special tokens into distinct runs with how often each occurs. */
    static Map<String, Long> runs(List<String> texts, List<String> specials) {
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
        return counts;
    }

    private static String specialAt(String text, int at, List<String> specials) {
        for (String s : specials) {
            if (text.startsWith(s, at)) return s;
        }
        return null;
    }

    /**
     * The runs as arrays of symbol ids, every adjacent joinable pair with its count (a run's pairs count as often
     * as the run occurs), which runs each pair may occur in, and the pairs in a heap, best first.
     */
    private static final class Pairs {
        // symbols: ids by string, so two merges that make the same string make one symbol
        private final List<String> names = new ArrayList<>();
        private final Map<String, Integer> ids = new HashMap<>();

        // runs
        private final int[][] symbols;
        private final int[] length;
        private final long[] runCount;
        private final int[] seenBy; // the last merge that rewrote the run, so a run listed twice is rewritten once
        private int merges;

        // pairs, by id
        private final PairIds pairIds = new PairIds();
        private int[] left = new int[1024];
        private int[] right = new int[1024];
        private long[] count = new long[1024];
        private int[][] runsOf = new int[1024][];
        private int[] runsOfSize = new int[1024];
        private int[] lastListed = new int[1024]; // the run last added to runsOf, to skip a run's repeats of a pair
        private int pairsSeen;

        // max-heap of pair ids, and each pair's place in it
        private int[] heap = new int[1024];
        private int[] place = new int[1024];

        Pairs(Map<String, Long> runs) {
            int[] ofChar = new int[Character.MAX_VALUE + 1];
            Arrays.fill(ofChar, -1);
            symbols = new int[runs.size()][];
            length = new int[runs.size()];
            runCount = new long[runs.size()];
            seenBy = new int[runs.size()];
            int r = 0;
            for (Map.Entry<String, Long> e : runs.entrySet()) {
                String text = e.getKey();
                int[] s = new int[text.length()];
                for (int i = 0; i < s.length; i++) {
                    char c = text.charAt(i);
                    if (ofChar[c] < 0) ofChar[c] = symbol(String.valueOf(c));
                    s[i] = ofChar[c];
                }
                symbols[r] = s;
                length[r] = s.length;
                runCount[r] = e.getValue();
                for (int i = 0; i + 1 < s.length; i++) add(s[i], s[i + 1], runCount[r], r);
                r++;
            }
        }

        /** The most frequent pair (the lexically smallest of equals), or -1 when there is none. */
        int best() {
            return pairsSeen == 0 ? -1 : heap[0];
        }

        long count(int pair) {
            return count[pair];
        }

        /** Joins every occurrence of the pair, left to right in each run, and returns it as a merge. */
        Merge merge(int pair) {
            int a = left[pair];
            int b = right[pair];
            Merge merge = new Merge(names.get(a), names.get(b));
            int m = symbol(merge.merged());
            // the pair's own list does not grow meanwhile: a pair made with m is never (a, b), m being longer than both
            int[] runs = runsOf[pair];
            int listed = runsOfSize[pair];
            merges++;
            for (int i = 0; i < listed; i++) {
                int r = runs[i];
                if (seenBy[r] != merges) {
                    seenBy[r] = merges;
                    rewrite(r, a, b, m);
                }
            }
            // no run holds the pair now; one made again later lists its runs again
            runsOf[pair] = null;
            runsOfSize[pair] = 0;
            lastListed[pair] = -1;
            return merge;
        }

        /**
         * Replaces (a, b) with m left to right in place, counting each replacement as the pairs it breaks and makes
         * with the symbols beside it: the one before is already rewritten, the one after not yet, so a chain of
         * occurrences ("a b a b") counts exactly as recounting the rewritten run would.
         */
        private void rewrite(int r, int a, int b, int m) {
            int[] s = symbols[r];
            int n = length[r];
            long c = runCount[r];
            int w = 0;
            for (int i = 0; i < n; ) {
                if (i + 1 < n && s[i] == a && s[i + 1] == b) {
                    if (w > 0) {
                        add(s[w - 1], a, -c, r);
                        add(s[w - 1], m, c, r);
                    }
                    add(a, b, -c, r);
                    if (i + 2 < n) {
                        add(b, s[i + 2], -c, r);
                        add(m, s[i + 2], c, r);
                    }
                    s[w++] = m;
                    i += 2;
                } else {
                    s[w++] = s[i++];
                }
            }
            length[r] = w;
        }

        /** Adds {@code delta} to the count of the pair (x, y) in run r, unless one of them is a digit. */
        private void add(int x, int y, long delta, int r) {
            if (!joinable(x) || !joinable(y)) return;
            int pair = pairIds.idOf((long) x << 32 | y, pairsSeen);
            if (pair == pairsSeen) create(pair, x, y);
            count[pair] += delta;
            if (delta > 0) {
                list(pair, r);
                up(place[pair]);
            } else {
                down(place[pair]);
            }
        }

        private boolean joinable(int symbol) {
            String s = names.get(symbol);
            return !(s.length() == 1 && s.charAt(0) >= '0' && s.charAt(0) <= '9');
        }

        private int symbol(String name) {
            return ids.computeIfAbsent(name, n -> {
                names.add(n);
                return names.size() - 1;
            });
        }

        private void create(int pair, int x, int y) {
            if (pair == left.length) {
                int size = 2 * pair;
                left = Arrays.copyOf(left, size);
                right = Arrays.copyOf(right, size);
                count = Arrays.copyOf(count, size);
                runsOf = Arrays.copyOf(runsOf, size);
                runsOfSize = Arrays.copyOf(runsOfSize, size);
                lastListed = Arrays.copyOf(lastListed, size);
                heap = Arrays.copyOf(heap, size);
                place = Arrays.copyOf(place, size);
            }
            left[pair] = x;
            right[pair] = y;
            lastListed[pair] = -1;
            heap[pair] = pair; // at the heap's end, with a count of 0
            place[pair] = pair;
            pairsSeen++;
        }

        private void list(int pair, int r) {
            if (lastListed[pair] == r) return;
            lastListed[pair] = r;
            int[] runs = runsOf[pair];
            int n = runsOfSize[pair];
            if (runs == null) runs = runsOf[pair] = new int[4];
            else if (n == runs.length) runs = runsOf[pair] = Arrays.copyOf(runs, 2 * n);
            runs[n] = r;
            runsOfSize[pair] = n + 1;
        }

        private boolean before(int p, int q) {
            if (count[p] != count[q]) return count[p] > count[q];
            int c = names.get(left[p]).compareTo(names.get(left[q]));
            return c != 0 ? c < 0 : names.get(right[p]).compareTo(names.get(right[q])) < 0;
        }

        private void up(int i) {
            int pair = heap[i];
            while (i > 0) {
                int parent = (i - 1) / 2;
                if (!before(pair, heap[parent])) break;
                put(heap[parent], i);
                i = parent;
            }
            put(pair, i);
        }

        private void down(int i) {
            int pair = heap[i];
            while (true) {
                int child = 2 * i + 1;
                if (child >= pairsSeen) break;
                if (child + 1 < pairsSeen && before(heap[child + 1], heap[child])) child++;
                if (!before(heap[child], pair)) break;
                put(heap[child], i);
                i = child;
            }
            put(pair, i);
        }

        private void put(int pair, int i) {
            heap[i] = pair;
            place[pair] = i;
        }
    }

    /** Pair ids by {@code left << 32 | right}, open addressing; nothing is ever removed (a spent pair keeps its id). */
    private static final class PairIds {
        private long[] keys = new long[2048];
        private int[] ids = new int[2048]; // id + 1; 0: a free slot
        private int size;

        /** The key's id, or {@code fresh} when it has none yet (it then has that one). */
        int idOf(long key, int fresh) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (ids[i] == 0) {
                    keys[i] = key;
                    ids[i] = fresh + 1;
                    if (++size * 2 > keys.length) grow();
                    return fresh;
                }
                if (keys[i] == key) return ids[i] - 1;
            }
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ h >>> 32) & mask;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldIds = ids;
            keys = new long[2 * oldKeys.length];
            ids = new int[2 * oldIds.length];
            int mask = keys.length - 1;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldIds[j] == 0) continue;
                int i = slot(oldKeys[j], mask);
                while (ids[i] != 0) i = (i + 1) & mask;
                keys[i] = oldKeys[j];
                ids[i] = oldIds[j];
            }
        }
    }
}
