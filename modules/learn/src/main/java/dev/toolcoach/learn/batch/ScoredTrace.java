package dev.toolcoach.learn.batch;

import dev.toolcoach.trace.Trace;

import java.util.Objects;

/** One rollout with the reward it earned: the unit the learner consumes. */
public record ScoredTrace(Trace trace, double reward) {
    public ScoredTrace {
        Objects.requireNonNull(trace, "trace");
        if (!Double.isFinite(reward)) {
            throw new IllegalArgumentException("reward of rollout " + trace.rolloutId() + " is not finite: " + reward);
        }
    }
}
