package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

/**
 * The ART·E email-agent reward: a correct answer earns 1 plus a bonus of up to 0.1 for using fewer
 * turns ({@code 1 + 0.1·(1 − turns/maxTurns)}), a wrong answer −0.5 (worse than not answering, so
 * guessing does not pay), and no answer 0.
 */
public final class ArtEReward implements TraceReward {

    private final int maxTurns;
    private final ExactMatchReward judge;

    public ArtEReward(int maxTurns, ExactMatchReward judge) {
        if (maxTurns < 1) throw new IllegalArgumentException("max turns must be >= 1: " + maxTurns);
        this.maxTurns = maxTurns;
        this.judge = judge;
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        String gold = example.requireGoldAnswer("art_e");
        if (trace.finalAnswer() == null) return 0.0;
        if (!judge.matches(trace.finalAnswer(), gold)) return -0.5;
        return 1.0 + 0.1 * (1.0 - (double) trace.turns().size() / maxTurns);
    }
}
