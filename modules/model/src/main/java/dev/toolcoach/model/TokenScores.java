package dev.toolcoach.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;

/**
 * What a teacher-forced forward says about each target token. Positions whose target is padding hold
 * meaningless values; the caller masks them. Lives in the manager the logits live in.
 *
 * @param logprobs log-prob of each target (rows, length), differentiable
 * @param entropy  entropy of each position's next-token distribution (rows, length), detached (a metric)
 */
public record TokenScores(NDArray logprobs, NDArray entropy) {

    /** From logits (rows, length, vocab) and targets (rows, length). */
    public static TokenScores fromLogits(NDArray logits, NDArray targets) {
        NDArray all = logits.logSoftmax(-1);
        NDArray index = targets.toType(DataType.INT64, false).expandDims(-1);
        NDArray picked = all.gather(index, -1).squeeze(-1);
        NDArray detached = all.stopGradient();
        NDArray entropy = detached.exp().mul(detached).sum(new int[] {-1}).neg();
        return new TokenScores(picked, entropy);
    }
}
