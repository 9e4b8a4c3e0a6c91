/**
 * A task-sized model from scratch: the recipe ({@code ScratchRecipe}), the oracle texts its vocabulary is learned from
 * ({@code TaskTexts}), the byte-level BPE merge learner ({@code MergeLearner}, digits never merged) and the vocabulary
 * it makes ({@code TaskVocabulary}), and the random Qwen2 folder written with it ({@code ScratchModel}); how the
 * defaults were measured: docs/RECIPE.md. {@code ScratchRecipe.defaults()} takes the one set of training defaults of
 * {@code TrainingConfig}'s builder. A user's recipe (the {@code /jobs} {@code recipe} or a {@code --recipe} file)
 * names only the fields it changes over {@code ScratchRecipe.defaults()} ({@code ScratchRecipe.overDefaults}); a run's
 * {@code config.json} is read as written. The recipe's {@code vocabularyExamples} bounds the training examples whose
 * oracle rollouts teach the vocabulary (0: every one).
 */
package dev.toolcoach.brain.scratch;
