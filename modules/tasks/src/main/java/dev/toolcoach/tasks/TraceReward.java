package dev.toolcoach.tasks;

import dev.toolcoach.trace.Trace;

/**
 * A reward computed from one rollout alone, given the example it was made from: the one reward type of
 * training (lifted to a whole group by {@code rewards.Reward.perTrace}), evaluation and a task's own score.
 */
@FunctionalInterface
public interface TraceReward {

    double score(Trace trace, RewardContext example);

    /** The score of a rollout of a dataset example. */
    default double score(TaskExample example, Trace trace) {
        return score(trace, RewardContext.of(example));
    }
}
