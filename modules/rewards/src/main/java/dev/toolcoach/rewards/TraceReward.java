package dev.toolcoach.rewards;

import dev.toolcoach.trace.Trace;

/** A reward computed from one rollout alone, given the example it was made from. */
@FunctionalInterface
public interface TraceReward {
    double score(Trace trace, RewardContext example);
}
