package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

/** 1 for a run within {@code maxTurns} turns, 0.1 less per extra turn, never below 0. */
public final class StepEfficiencyReward implements TraceReward {

    private final int maxTurns;

    public StepEfficiencyReward(int maxTurns) {
        if (maxTurns < 1) throw new IllegalArgumentException("max turns must be >= 1: " + maxTurns);
        this.maxTurns = maxTurns;
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        int extra = trace.turns().size() - maxTurns;
        return extra <= 0 ? 1.0 : Math.max(0.0, 1.0 - 0.1 * extra);
    }
}
