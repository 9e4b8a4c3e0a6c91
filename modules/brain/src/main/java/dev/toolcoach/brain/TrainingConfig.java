package dev.toolcoach.brain;

import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.model.lora.LoraConfig;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How a training job runs. Every number is checked here, so a bad setting fails before anything starts.
 *
 * @param algorithm          {@code grpo}, {@code dpo} or {@code sft}, any case
 * @param groupSize          rollouts per query (G)
 * @param groupsPerStep      query groups per learner step
 * @param maxPolicyLag       versions a group's rollouts may lag the policy it is trained into; 0 is the
 *                           synchronous mode (roll out a batch, train, broadcast, repeat)
 * @param athletes           athlete actors (each runs one rollout at a time; all share the node's engine)
 * @param temperature        sampling temperature of rollouts
 * @param maxNewTokens       most tokens of one model reply
 * @param maxTurns           most model replies in one rollout
 * @param maxTotalTokens     most tokens in one rollout's whole context
 * @param lora               the adapter trained on the frozen base
 * @param learningRate       AdamW's learning rate (constant)
 * @param klBeta             weight of the k3 KL penalty to the adapter-free reference (GRPO), 0 for none
 * @param sftRewardThreshold SFT learns only from traces whose reward reaches it
 * @param checkpointEvery    learner steps between checkpoints
 * @param rolloutTimeout     a rollout not back by then is dispatched again
 * @param seed               seeds sampling, LoRA initialisation and the learner
 */
public record TrainingConfig(String algorithm, int groupSize, int groupsPerStep, int maxPolicyLag, int athletes,
                             double temperature, int maxNewTokens, int maxTurns, int maxTotalTokens, LoraConfig lora,
                             double learningRate, double klBeta, double sftRewardThreshold, int checkpointEvery,
                             Duration rolloutTimeout, long seed) {

    public TrainingConfig {
        Algorithm.parse(algorithm);
        Objects.requireNonNull(lora, "lora");
        Objects.requireNonNull(rolloutTimeout, "rolloutTimeout");
        positive("group size", groupSize);
        positive("groups per step", groupsPerStep);
        positive("athletes", athletes);
        positive("max new tokens", maxNewTokens);
        positive("max turns", maxTurns);
        positive("max total tokens", maxTotalTokens);
        positive("checkpoint interval", checkpointEvery);
        if (maxPolicyLag < 0) throw new IllegalArgumentException("max policy lag must be 0 or more, was " + maxPolicyLag);
        if (!(temperature >= 0)) throw new IllegalArgumentException("temperature must be 0 or more, was " + temperature);
        if (!(learningRate > 0)) throw new IllegalArgumentException("learning rate must be positive, was " + learningRate);
        if (!(klBeta >= 0)) throw new IllegalArgumentException("KL beta must be 0 or more, was " + klBeta);
        if (rolloutTimeout.isNegative() || rolloutTimeout.isZero()) {
            throw new IllegalArgumentException("rollout timeout must be positive, was " + rolloutTimeout);
        }
    }

    /**
     * GRPO, 8 rollouts per query, 4 queries per step, asynchronous with a lag of 1, 16 athletes,
     * temperature 1, LoRA r=16 on every projection, learning rate 2e-3, no KL.
     */
    public static TrainingConfig defaults() {
        return new TrainingConfig("grpo", 8, 4, 1, 16, 1.0, 96, 4, 1024,
                new LoraConfig(16, 32f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), 2e-3, 0, 0.9, 10,
                Duration.ofMinutes(2), 1);
    }

    public Algorithm parsedAlgorithm() {
        return Algorithm.parse(algorithm);
    }

    public TrainingConfig withAlgorithm(String name) {
        return new TrainingConfig(name, groupSize, groupsPerStep, maxPolicyLag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withGroups(int size, int perStep) {
        return new TrainingConfig(algorithm, size, perStep, maxPolicyLag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withMaxPolicyLag(int lag) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, lag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withAthletes(int count) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, maxPolicyLag, count, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withSampling(double temp, int newTokens, int turns, int totalTokens) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, maxPolicyLag, athletes, temp, newTokens, turns,
                totalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withOptimisation(LoraConfig adapter, double lr, double beta) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, maxPolicyLag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, adapter, lr, beta, sftRewardThreshold, checkpointEvery, rolloutTimeout, seed);
    }

    public TrainingConfig withCheckpointEvery(int steps) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, maxPolicyLag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, steps, rolloutTimeout, seed);
    }

    public TrainingConfig withSeed(long s) {
        return new TrainingConfig(algorithm, groupSize, groupsPerStep, maxPolicyLag, athletes, temperature, maxNewTokens, maxTurns,
                maxTotalTokens, lora, learningRate, klBeta, sftRewardThreshold, checkpointEvery, rolloutTimeout, s);
    }

    private static void positive(String name, long value) {
        if (value < 1) throw new IllegalArgumentException(name + " must be at least 1, was " + value);
    }
}
