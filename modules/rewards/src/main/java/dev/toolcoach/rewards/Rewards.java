package dev.toolcoach.rewards;

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

    public static Reward toolSuccess() {
        return Reward.perTrace("tool_success", new ToolSuccessReward());
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
