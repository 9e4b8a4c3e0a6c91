package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.ScoredTrace;

/** A preferred and a dispreferred rollout of the same query, with a strictly higher reward for the first. */
public record PreferencePair(ScoredTrace chosen, ScoredTrace rejected) {
    public PreferencePair {
        if (!(chosen.reward() > rejected.reward())) {
            throw new IllegalArgumentException("pair " + chosen.trace().rolloutId() + " / " + rejected.trace().rolloutId()
                    + " is not ordered: rewards " + chosen.reward() + " and " + rejected.reward());
        }
    }
}
