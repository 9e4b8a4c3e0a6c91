package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Builds DPO pairs by reward rank (deterministic: ties keep trace order), never pairing equal rewards. */
public final class PreferencePairs {
    private PreferencePairs() {
    }

    public static List<Pair> of(ScoredGroup group, DpoConfig.PairMode mode, double minMargin) {
        List<ScoredTrace> ranked = new ArrayList<>(group.traces());
        ranked.sort(Comparator.comparingDouble(ScoredTrace::reward).reversed());
        List<Pair> pairs = new ArrayList<>();
        if (mode == DpoConfig.PairMode.BEST_VS_WORST) {
            ScoredTrace best = ranked.get(0);
            ScoredTrace worst = ranked.get(ranked.size() - 1);
            if (qualifies(best, worst, minMargin)) {
                pairs.add(new Pair(best, worst));
            }
            return pairs;
        }
        for (int i = 0; i < ranked.size(); i++) {
            for (int j = i + 1; j < ranked.size(); j++) {
                if (qualifies(ranked.get(i), ranked.get(j), minMargin)) {
                    pairs.add(new Pair(ranked.get(i), ranked.get(j)));
                }
            }
        }
        return pairs;
    }

    private static boolean qualifies(ScoredTrace hi, ScoredTrace lo, double minMargin) {
        double gap = hi.reward() - lo.reward();
        return gap > 0 && gap >= minMargin;
    }

    /** A preferred and a dispreferred rollout of the same query, with a strictly higher reward for the first. */
    public record Pair(ScoredTrace chosen, ScoredTrace rejected) {
        public Pair {
            if (!(chosen.reward() > rejected.reward())) {
                throw new IllegalArgumentException("pair " + chosen.trace().rolloutId() + " / " + rejected.trace().rolloutId()
                        + " is not ordered: rewards " + chosen.reward() + " and " + rejected.reward());
            }
        }
    }
}
