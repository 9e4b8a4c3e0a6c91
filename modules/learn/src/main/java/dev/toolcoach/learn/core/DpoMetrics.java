package dev.toolcoach.learn.core;

/**
 * What one DPO batch did.
 *
 * @param accuracy   fraction of pairs whose implicit reward prefers the chosen rollout
 * @param meanMargin mean of beta * h over pairs
 */
public record DpoMetrics(long version, double loss, double accuracy, double meanMargin, long pairs, double gradNorm,
                         double learningRate) {
}
