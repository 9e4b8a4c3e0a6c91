/**
 * Traces as training rows. The learner scores each context alone, exactly as it was generated:
 * {@code TrainingSequence.contexts} numbers each position's context, {@code PaddedBatch.attentionRows()} carries those
 * numbers, and {@code StepInputs.scoring} (model) lets a token see only earlier tokens of its own context, at positions
 * counted from that context's start. One trace stays one row, so GRPO's per-sequence aggregation and DPO's sequence
 * log-probs are over the whole trajectory; only generated tokens carry loss. {@code TrainingSequence.from} is the
 * learner's own check of a trace (no generated token, ...): a group with a trace that fails it is dropped as unusable.
 */
package dev.toolcoach.learn.batch;
