package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.util.Set;

/**
 * Behaviour rule "look it up first": 1 when the run answered and, in an earlier turn, called one of
 * the given tools (e.g. a search tool); else 0.
 */
public final class UsesToolBeforeAnswerReward implements TraceReward {

    private final Set<String> tools;

    public UsesToolBeforeAnswerReward(Set<String> tools) {
        if (tools.isEmpty()) throw new IllegalArgumentException("name at least one tool that must come first");
        this.tools = Set.copyOf(tools);
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        boolean called = false;
        for (Turn turn : trace.turns()) {
            if (turn.parsedCompletion() == null) continue;
            if (turn.parsedCompletion().finalAnswer() != null) return called ? 1.0 : 0.0;
            called |= turn.parsedCompletion().toolCalls().stream().anyMatch(c -> tools.contains(c.name()));
        }
        return 0.0;
    }
}
