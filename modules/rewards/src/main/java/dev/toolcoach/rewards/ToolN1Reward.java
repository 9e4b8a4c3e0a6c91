package dev.toolcoach.rewards;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tasks.calling.CallMatchReward;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.trace.Trace;

import java.util.Map;

/**
 * Nemotron Tool-N1's binary reward on a function-calling step: 1 when the first turn's completion
 * is in the action format (a think block, then tool calls) AND its calls match the example's
 * expected calls under the BFCL checker; else 0. The example travels in the context under
 * {@link #EXAMPLE_FIELD}; {@link #context} builds such a context.
 */
public final class ToolN1Reward implements TraceReward {

    public static final String EXAMPLE_FIELD = "calling_example";

    private final CallMatchReward checker;

    /** @param requireThinking whether a {@code <think>} block before the calls is part of the format */
    public ToolN1Reward(boolean requireThinking) {
        this.checker = new CallMatchReward(ActionFormat.TOOL_N1, requireThinking);
    }

    /** The reward context of a function-calling example (gold calls: the oracle's calls). */
    public static RewardContext context(CallingExample example) {
        return new RewardContext(example.id(), example.query(), null, example.oracleCalls(),
                Map.of(EXAMPLE_FIELD, example));
    }

    @Override
    public double score(Trace trace, RewardContext context) {
        CallingExample example = context.value(EXAMPLE_FIELD, CallingExample.class).orElseThrow(() ->
                new IllegalArgumentException("example " + context.queryId() + " has no '" + EXAMPLE_FIELD
                        + "' field, which reward 'tool_n1' needs"));
        if (trace.turns().isEmpty()) return 0.0;
        return checker.score(example, trace.turns().get(0).modelCompletion());
    }
}
