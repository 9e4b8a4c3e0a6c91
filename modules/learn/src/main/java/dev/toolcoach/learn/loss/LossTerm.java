package dev.toolcoach.learn.loss;

import ai.djl.ndarray.NDArray;

/**
 * A differentiable batch loss with its host-side statistics.
 *
 * @param loss  scalar to back-propagate
 * @param stats what happened in this (micro-)batch, summed so micro-batches can be added up
 * @param <S>   the loss family's statistics
 */
public record LossTerm<S>(NDArray loss, S stats) {
}
