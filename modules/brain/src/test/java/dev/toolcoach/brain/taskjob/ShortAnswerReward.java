package dev.toolcoach.brain.taskjob;

import dev.toolcoach.rewards.RewardProvider;
import dev.toolcoach.tasks.TraceReward;

/** A user's reward on the classpath (listed in this module's test META-INF/services): 1 for a final answer of at most 8 characters. */
public final class ShortAnswerReward implements RewardProvider {
    @Override
    public String name() {
        return "short-answer";
    }

    @Override
    public TraceReward reward() {
        return (trace, example) -> trace.finalAnswer() != null && trace.finalAnswer().length() <= 8 ? 1.0 : 0.0;
    }
}
