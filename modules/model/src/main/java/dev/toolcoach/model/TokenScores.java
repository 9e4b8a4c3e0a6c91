package dev.toolcoach.model;

import ai.djl.ndarray.NDArray;

/**
 * Teacher-forced scores of a batch: {@code logProbs[b, i]} = log p(token[b, i+1] | tokens[b, 0..i]) and the
 * entropy of that next-token distribution, both [B, L-1]. Positions whose target is padding hold meaningless
 * values; the caller masks them. Lives in the manager the caller passed in.
 */
public record TokenScores(NDArray logProbs, NDArray entropy) {
}
