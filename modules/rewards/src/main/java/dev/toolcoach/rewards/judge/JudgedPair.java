package dev.toolcoach.rewards.judge;

import dev.toolcoach.trace.Trace;

/**
 * The judge preferred {@code chosen} over {@code rejected}, two rollouts of one group. Only a verdict on
 * traces: the learner's {@code learn.loss.PreferencePairs.Pair} is the training pair (scored, reward-ordered).
 */
public record JudgedPair(Trace chosen, Trace rejected) {
}
