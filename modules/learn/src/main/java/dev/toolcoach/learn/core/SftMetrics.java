package dev.toolcoach.learn.core;

/**
 * What one supervised batch did.
 *
 * @param loss           mean negative log-likelihood per generated token
 * @param rejectedTraces traces below the reward threshold, not trained on
 * @param skippedUpdates 1 when the update was not applied because the loss or gradient norm was not finite
 */
public record SftMetrics(int version, double loss, long tokensTrained, int rejectedTraces, double gradNorm,
                         double learningRate, int skippedUpdates) implements TrainingMetrics {
}
