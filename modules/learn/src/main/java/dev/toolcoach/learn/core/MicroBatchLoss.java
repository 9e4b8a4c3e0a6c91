package dev.toolcoach.learn.core;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.learn.loss.LossTerm;
import dev.toolcoach.model.TokenScores;

/** The loss of one micro-batch given the policy's scores (index: the micro-batch's position in the batch). */
@FunctionalInterface
interface MicroBatchLoss<S> {
    LossTerm<S> compute(TokenScores policy, BatchTensors batch, NDManager scope, int index);
}
