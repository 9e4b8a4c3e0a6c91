package dev.toolcoach.learn.loss;

/** How per-token losses become one batch loss. */
public enum Aggregation {
    /** Sum over all generated tokens of the batch / their count (DAPO): long answers weigh more. */
    TOKEN_MEAN,
    /** Mean over sequences of each sequence's token mean (original GRPO). */
    SEQUENCE_MEAN,
    /** Sum over tokens / (sequences x a constant length) with unnormalised advantages (Dr.GRPO). */
    DR_GRPO
}
