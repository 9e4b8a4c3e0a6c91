package dev.toolcoach.rewards;

import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.tooluse.ToolUse;

import java.util.Set;

/** The built-in rewards, named and ready to hand to the learner. */
public final class Rewards {

    private Rewards() {
    }

    public static Reward exactMatch() {
        return exactMatch(ExactMatchReward.DEFAULT_TOLERANCE);
    }

    public static Reward exactMatch(double relativeTolerance) {
        return Reward.perTrace("exact_match", new ExactMatchReward(relativeTolerance));
    }

    public static Reward tokenF1() {
        return Reward.perTrace("token_f1", new TokenF1Reward());
    }

    public static Reward stepEfficiency(int maxTurns) {
        return Reward.perTrace("step_efficiency", new StepEfficiencyReward(maxTurns));
    }

    /** The share of calls that succeeded (TILE's call success rate). */
    public static Reward toolSuccess() {
        return Reward.perTrace("tool_success", new ToolSuccessReward());
    }

    /** TILE's efficiency: 1/calls (0 without calls). */
    public static Reward toolEfficiency() {
        return Reward.perTrace("tool_efficiency", (trace, example) -> ToolUseReward.efficiency(ToolUse.records(trace, null, null, null)));
    }

    /** TILE's retry penalty: minus the number of retries (the same tool again at once with other arguments). */
    public static Reward retryPenalty() {
        return Reward.perTrace("retry_penalty", (trace, example) -> -ToolUseReward.retries(ToolUse.records(trace, null, null, null)));
    }

    /** TILE's composite {@code α·success + β·(1/calls) + γ·outcome − δ·retries}, outcome being {@code taskReward}. */
    public static Reward toolComposite(ToolUseReward.Weights weights, TraceReward taskReward) {
        return Reward.perTrace("tool_composite", new ToolUseReward(weights, taskReward));
    }

    public static Reward usesToolBeforeAnswer(Set<String> tools) {
        return Reward.perTrace("uses_tool_before_answer", new UsesToolBeforeAnswerReward(tools));
    }

    public static Reward forbiddenTools(Set<String> tools) {
        return Reward.perTrace("no_forbidden_tools", new ForbiddenToolReward(tools));
    }

    public static Reward toolN1(boolean requireThinking) {
        return Reward.perTrace("tool_n1", new ToolN1Reward(requireThinking));
    }

    public static Reward artE(int maxTurns) {
        return Reward.perTrace("art_e", new ArtEReward(maxTurns, new ExactMatchReward(ExactMatchReward.DEFAULT_TOLERANCE)));
    }
}
