package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * One decoder layer on the device. Projections are stored as [in, out] so {@code x.matMul(w)} applies them;
 * q/k/v are fused into one matrix (columns q | k | v) and gate/up into another (gate | up), because on small
 * models every op costs the same few microseconds whatever its size.
 *
 * @param qkvBias null unless the architecture has q/k/v biases (Qwen2, attention_bias)
 * @param qNorm   per-head RMSNorm weight [headDim] on queries before RoPE, null unless Qwen3; kNorm likewise for keys
 * @param oBias   null unless the output projection has a bias (attention_bias)
 */
public record LayerWeights(NDArray attnNorm, NDArray wqkv, NDArray qkvBias, NDArray qNorm, NDArray kNorm, NDArray wo,
                           NDArray oBias, NDArray ffnNorm, NDArray wGateUp, NDArray wDown) {
}
