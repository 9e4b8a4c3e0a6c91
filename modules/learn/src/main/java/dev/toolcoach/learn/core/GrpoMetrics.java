package dev.toolcoach.learn.core;

import dev.toolcoach.learn.loss.GrpoLoss;

/**
 * What one GRPO batch did. Ratio, clip, KL and entropy figures are per generated token over all epochs.
 *
 * @param version        policy version after the batch
 * @param loss           mean batch loss over the epochs
 * @param gradNorm       global gradient norm (before clipping) of the last epoch
 * @param tokensTrained  generated tokens in the batch
 * @param skippedGroups  groups without reward variance, not trained on
 * @param meanStaleness  mean of (version before the batch - sampling version) over generated tokens
 * @param learningRate   learning rate of the last epoch
 * @param skippedUpdates epochs whose update was not applied because the loss or gradient norm was not finite
 */
public record GrpoMetrics(int version, double loss, double meanRatio, double clipFractionLow, double clipFractionHigh,
                          double cappedFraction, double kl, double entropy, double gradNorm, long tokensTrained,
                          int skippedGroups, double meanStaleness, double learningRate,
                          int skippedUpdates) implements TrainingMetrics {

    static GrpoMetrics of(int version, GrpoLoss.Stats s, int epochs, double gradNorm, int skipped, double staleness, double lr,
                          int skippedUpdates) {
        return new GrpoMetrics(version, s.loss() / epochs, s.meanRatio(), s.clipFractionLow(), s.clipFractionHigh(),
                s.cappedFraction(), s.meanKl(), s.meanEntropy(), gradNorm, s.tokens() / epochs, skipped, staleness, lr,
                skippedUpdates);
    }
}
