package dev.toolcoach.learn.core;

/**
 * What one DPO batch did.
 *
 * @param accuracy   fraction of pairs whose implicit reward prefers the chosen rollout
 * @param meanMargin     mean of beta * h over pairs
 * @param skippedUpdates 1 when the update was not applied because the loss or gradient norm was not finite
 */
public record DpoMetrics(int version, double loss, double accuracy, double meanMargin, long pairs, double gradNorm,
                         double learningRate, int skippedUpdates) implements TrainingMetrics {
}
