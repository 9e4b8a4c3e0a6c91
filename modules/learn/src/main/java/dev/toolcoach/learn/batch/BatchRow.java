package dev.toolcoach.learn.batch;

import java.util.Objects;

/**
 * A sequence with what the loss needs per row.
 *
 * @param sequence  the tokens
 * @param advantage the sequence's advantage (GRPO), 0 where a loss does not use it
 * @param weight    scale of each of its masked tokens in the batch loss; it carries the aggregation
 *                  (token-mean, sequence-mean, Dr.GRPO) and is computed over the whole batch, so
 *                  splitting the batch into micro-batches leaves the summed loss unchanged
 */
public record BatchRow(TrainingSequence sequence, float advantage, float weight) {
    public BatchRow {
        Objects.requireNonNull(sequence, "sequence");
    }
}
