package dev.toolcoach.agent;

import dev.toolcoach.lm.SamplingParams;

/**
 * How a training rollout samples and how long it may run: set once in the training config, carried to the
 * athletes in the job's spec, and turned into the agent's config here.
 *
 * @param temperature    sampling temperature of rollouts
 * @param maxNewTokens   most tokens of one model reply
 * @param maxTurns       most model replies in one rollout
 * @param maxTotalTokens most tokens in one rollout's whole context
 */
public record RolloutSettings(double temperature, int maxNewTokens, int maxTurns, int maxTotalTokens) {
    public RolloutSettings {
        positive("max new tokens", maxNewTokens);
        positive("max turns", maxTurns);
        positive("max total tokens", maxTotalTokens);
        if (!(temperature >= 0)) throw new IllegalArgumentException("temperature must be 0 or more, was " + temperature);
    }

    /**
     * The athletes' agent: sampling at the temperature from the whole distribution (no top-k, no top-p cut), so
     * the log-probs the learner trains with are those of the policy itself.
     */
    public AgentConfig samplingAgent(ActionFormat format, long seed) {
        return agent(format, SamplingParams.atTemperature((float) temperature, maxNewTokens, seed));
    }

    /** The evaluating agent: greedy, within the same limits. */
    public AgentConfig greedyAgent(ActionFormat format) {
        return agent(format, SamplingParams.greedy(maxNewTokens));
    }

    private AgentConfig agent(ActionFormat format, SamplingParams sampling) {
        return new AgentConfig(format, sampling, maxTurns, maxTotalTokens, AgentConfig.TOOL_TIMEOUT, AgentConfig.TOOL_OUTPUT_CAP);
    }

    private static void positive(String name, long value) {
        if (value < 1) throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
}
