package dev.toolcoach.rewards.judge;

import java.util.List;

/** The judge's result for one group. */
public sealed interface Judgement permits Judgement.Ranked, Judgement.Dropped {

    /**
     * A usable verdict.
     *
     * @param rewards  one per rollout, in group order
     * @param ranking  the ranking the rewards come from (derived from the scores in RULER mode)
     * @param pairs    DPO pairs: top-ranked rollouts against lower-ranked ones
     * @param attempts judge calls it took
     */
    record Ranked(List<Double> rewards, Ranking ranking, List<JudgedPair> pairs, int attempts) implements Judgement {
        public Ranked {
            rewards = List.copyOf(rewards);
            pairs = List.copyOf(pairs);
        }
    }

    /** No usable verdict after every attempt; {@code reason} is the last problem. */
    record Dropped(String reason, int attempts) implements Judgement {
    }
}
