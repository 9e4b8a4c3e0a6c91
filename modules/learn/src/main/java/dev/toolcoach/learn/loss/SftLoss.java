package dev.toolcoach.learn.loss;

import dev.toolcoach.model.TokenScores;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.learn.batch.BatchTensors;

/** Masked cross-entropy over generated tokens only: -sum(weight * logp), weights 1 / generated tokens of the batch. */
public final class SftLoss {

    public LossTerm<Double> compute(TokenScores policy, BatchTensors batch) {
        NDArray loss = policy.logprobs().mul(batch.tokenWeights()).sum().neg();
        return new LossTerm<>(loss, (double) loss.stopGradient().toType(DataType.FLOAT32, false).getFloat());
    }
}
