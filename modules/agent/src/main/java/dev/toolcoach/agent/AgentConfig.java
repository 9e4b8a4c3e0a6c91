package dev.toolcoach.agent;

import dev.toolcoach.lm.SamplingParams;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits and choices of one agent.
 *
 * @param actionFormat    how the model is asked to act and how replies are parsed
 * @param sampling        sampling parameters for every reply
 * @param maxTurns        most model replies in one run
 * @param maxTotalTokens  most tokens in the whole context (prompt, replies and observations)
 * @param toolTimeout     how long one tool call may take before it becomes a timeout observation
 * @param toolOutputCap   most characters of one tool output shown to the model; longer ones are cut in the middle
 */
public record AgentConfig(ActionFormat actionFormat, SamplingParams sampling, int maxTurns, int maxTotalTokens,
                          Duration toolTimeout, int toolOutputCap) {
    public AgentConfig {
        Objects.requireNonNull(actionFormat, "actionFormat");
        Objects.requireNonNull(sampling, "sampling");
        Objects.requireNonNull(toolTimeout, "toolTimeout");
        if (maxTurns <= 0) throw new IllegalArgumentException("maxTurns must be > 0, got " + maxTurns);
        if (maxTotalTokens <= 0) throw new IllegalArgumentException("maxTotalTokens must be > 0, got " + maxTotalTokens);
        if (toolTimeout.isNegative() || toolTimeout.isZero()) {
            throw new IllegalArgumentException("toolTimeout must be positive, got " + toolTimeout);
        }
        if (toolOutputCap <= 0) throw new IllegalArgumentException("toolOutputCap must be > 0, got " + toolOutputCap);
    }

    /** How long a tool call may take unless a caller decides otherwise; every agent built from a job or a Brain uses it. */
    public static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);

    /** Most characters of one tool output unless a caller decides otherwise. */
    public static final int TOOL_OUTPUT_CAP = 4000;

    /** Tool-N1 format, greedy 512-token replies, 8 turns, 4096 tokens, the default tool limits. */
    public static AgentConfig defaults() {
        return new AgentConfig(ActionFormat.TOOL_N1, SamplingParams.greedy(512), 8, 4096, TOOL_TIMEOUT, TOOL_OUTPUT_CAP);
    }

    public AgentConfig withSampling(SamplingParams s) {
        return new AgentConfig(actionFormat, s, maxTurns, maxTotalTokens, toolTimeout, toolOutputCap);
    }

    public AgentConfig withLimits(int turns, int totalTokens) {
        return new AgentConfig(actionFormat, sampling, turns, totalTokens, toolTimeout, toolOutputCap);
    }

    public AgentConfig withTools(Duration timeout, int outputCap) {
        return new AgentConfig(actionFormat, sampling, maxTurns, maxTotalTokens, timeout, outputCap);
    }
}
