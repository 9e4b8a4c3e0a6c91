package dev.toolcoach.rewards.judge;

import java.util.ArrayList;
import java.util.List;

/**
 * A full ranking of a group, best first, as tiers of rollout indices (0-based); rollouts in one
 * tier are tied. Every index of the group appears exactly once (checked by the reply parsers).
 */
public record Ranking(List<List<Integer>> tiers) {

    public Ranking {
        tiers = tiers.stream().map(List::copyOf).toList();
    }

    public int size() {
        return tiers.stream().mapToInt(List::size).sum();
    }

    /**
     * Rewards by rank: best 1, worst 0, linear between; tied rollouts share the mean of the
     * positions they occupy. A group of one gets 1.
     */
    public List<Double> rewards() {
        int n = size();
        double[] reward = new double[n];
        int position = 0;
        for (List<Integer> tier : tiers) {
            double meanPosition = position + (tier.size() - 1) / 2.0;
            double r = n == 1 ? 1.0 : 1.0 - meanPosition / (n - 1);
            for (int i : tier) reward[i] = r;
            position += tier.size();
        }
        List<Double> out = new ArrayList<>(n);
        for (double r : reward) out.add(r);
        return out;
    }

    /** Preference pairs for DPO: each top-tier rollout against each rollout ranked below the top tier. */
    public List<IndexPair> preferencePairs() {
        List<IndexPair> pairs = new ArrayList<>();
        for (int chosen : tiers.get(0)) {
            for (List<Integer> lower : tiers.subList(1, tiers.size())) {
                for (int rejected : lower) pairs.add(new IndexPair(chosen, rejected));
            }
        }
        return pairs;
    }

    /** A preferred and a dispreferred rollout, by group index. */
    public record IndexPair(int chosen, int rejected) {
    }
}
