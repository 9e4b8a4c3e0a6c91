package dev.toolcoach.learn.batch;

import ai.djl.ndarray.NDArray;

/**
 * A {@link PaddedBatch} on the device. Shapes are (rows, length) except {@code advantages} (rows, 1).
 *
 * @param tokenWeights mask times the row's aggregation weight: the loss is sum(weight * per-token loss)
 */
public record BatchTensors(NDArray inputIds, NDArray targets, NDArray mask, NDArray behaviourLogprobs,
                           NDArray advantages, NDArray tokenWeights) {
}
