package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * One decoder layer on the device. Projections are stored as [in, out] so {@code x.matMul(w)} applies them;
 * q/k/v are fused into one matrix (columns q | k | v) and gate/up into another (gate | up), because on small
 * models every op costs the same few microseconds whatever its size.
 *
 * @param qkvBias null unless the architecture has q/k/v biases (Qwen2)
 */
public record LayerWeights(NDArray attnNorm, NDArray wqkv, NDArray qkvBias, NDArray wo,
                           NDArray ffnNorm, NDArray wGateUp, NDArray wDown) {
}
