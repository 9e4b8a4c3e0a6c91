package dev.toolcoach.tools.skills;

import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.tooluse.ToolUse;

import java.util.List;
import java.util.Objects;

/**
 * What the miner learns from: one successful trajectory's tool calls with their results, in call order.
 *
 * @param id      the trace's rollout id (named in a skill's provenance)
 * @param results every call of the trajectory with its result, in order
 */
public record SkillTrajectory(String id, List<ToolResult> results) {

    public SkillTrajectory {
        Objects.requireNonNull(id, "id");
        results = List.copyOf(results);
    }

    public static SkillTrajectory of(Trace trace) {
        return new SkillTrajectory(trace.rolloutId(), trace.toolResults());
    }

    /**
     * Whether a recorded trace solved its task: it ended with an answer and its recorded reward is at least
     * {@code minReward}. A trace without a recorded reward is not counted as a success.
     */
    public static boolean succeeded(Trace trace, double minReward) {
        return trace.termination() == Termination.ANSWER
                && trace.reward().isPresent() && trace.reward().getAsDouble() >= minReward;
    }

    public List<String> toolNames() {
        return results.stream().map(r -> r.call().name()).toList();
    }
}
