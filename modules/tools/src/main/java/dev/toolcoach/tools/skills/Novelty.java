package dev.toolcoach.tools.skills;

import java.util.Collection;
import java.util.List;

/**
 * How new a call pattern is next to the skills already known: 1 − the highest similarity of its tool sequence to
 * theirs, where the similarity of two sequences is their longest common subsequence over the longer one's length.
 * 1 means nothing like it is known; 0 means a known skill makes exactly these calls.
 */
public final class Novelty {

    private Novelty() {
    }

    public static double score(List<String> tools, Collection<List<String>> known) {
        double closest = 0;
        for (List<String> other : known) closest = Math.max(closest, similarity(tools, other));
        return 1 - closest;
    }

    static double similarity(List<String> a, List<String> b) {
        if (a.isEmpty() && b.isEmpty()) return 1;
        int[][] lcs = new int[a.size() + 1][b.size() + 1];
        for (int i = 1; i <= a.size(); i++) {
            for (int j = 1; j <= b.size(); j++) {
                lcs[i][j] = a.get(i - 1).equals(b.get(j - 1)) ? lcs[i - 1][j - 1] + 1 : Math.max(lcs[i - 1][j], lcs[i][j - 1]);
            }
        }
        return (double) lcs[a.size()][b.size()] / Math.max(a.size(), b.size());
    }
}
