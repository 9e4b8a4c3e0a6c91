package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.AgentConfig;

import java.util.Objects;

/**
 * How demonstrations are collected and filtered.
 *
 * @param tracesPerExample teacher rollouts per example (sampling seeds {@code seed + i})
 * @param rewardThreshold  a demonstration is kept only when its reward is strictly above this
 * @param agent            the student's agent settings the teacher acts under
 */
public record DistillSettings(int tracesPerExample, double rewardThreshold, AgentConfig agent) {
    public DistillSettings {
        if (tracesPerExample < 1) throw new IllegalArgumentException("tracesPerExample must be >= 1, got " + tracesPerExample);
        if (!Double.isFinite(rewardThreshold)) throw new IllegalArgumentException("rewardThreshold must be finite");
        Objects.requireNonNull(agent, "agent");
    }

    /** One trace per example, threshold 0.9, the agent's defaults. */
    public static DistillSettings defaults() {
        return new DistillSettings(1, 0.9, AgentConfig.defaults());
    }

    /** Everything that changes which traces are collected, for the cache key. */
    String cacheKeyPart() {
        return "traces=" + tracesPerExample + ";agent=" + agent;
    }
}
