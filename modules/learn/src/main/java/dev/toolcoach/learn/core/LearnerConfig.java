package dev.toolcoach.learn.core;

import dev.toolcoach.learn.loss.DpoConfig;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.learn.optim.AdamWConfig;
import dev.toolcoach.learn.optim.LrSchedule;

import java.util.Objects;

/**
 * @param grpo            GRPO settings
 * @param dpo             DPO settings
 * @param optimiser       AdamW settings
 * @param schedule        learning rate per optimiser step
 * @param maxGradNorm     global-norm clipping threshold
 * @param microBatchRows  rows per forward/backward; gradients accumulate over the micro-batches of a batch
 * @param seed            seeds the learner's generator (dropout masks derive from it per step)
 */
public record LearnerConfig(GrpoConfig grpo, DpoConfig dpo, AdamWConfig optimiser, LrSchedule schedule,
                            double maxGradNorm, int microBatchRows, long seed) {
    public LearnerConfig {
        Objects.requireNonNull(grpo, "grpo");
        Objects.requireNonNull(dpo, "dpo");
        Objects.requireNonNull(optimiser, "optimiser");
        Objects.requireNonNull(schedule, "schedule");
        if (maxGradNorm <= 0 || microBatchRows < 1) {
            throw new IllegalArgumentException("need maxGradNorm > 0 and microBatchRows >= 1");
        }
    }

    public static LearnerConfig defaults(double learningRate) {
        return new LearnerConfig(GrpoConfig.defaults(), DpoConfig.defaults(), AdamWConfig.defaults(),
                LrSchedule.constant(learningRate), 1.0, 8, 42);
    }

    public LearnerConfig withGrpo(GrpoConfig g) {
        return new LearnerConfig(g, dpo, optimiser, schedule, maxGradNorm, microBatchRows, seed);
    }

    public LearnerConfig withDpo(DpoConfig d) {
        return new LearnerConfig(grpo, d, optimiser, schedule, maxGradNorm, microBatchRows, seed);
    }

    public LearnerConfig withMicroBatchRows(int rows) {
        return new LearnerConfig(grpo, dpo, optimiser, schedule, maxGradNorm, rows, seed);
    }
}
