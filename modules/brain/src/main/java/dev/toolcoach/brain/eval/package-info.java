/**
 * Task evaluation: {@code TaskEvaluation} runs a model greedily over a test split; {@code EvaluationReport} gives the
 * accuracy, prompt tokens, rollouts/s and the accuracy per oracle route ({@code byOracleRoute}; the 95% Wilson interval
 * is the main job's {@code taskjob.EvalRecord}); {@code EvalSession} loads the model once for an evaluation phase,
 * {@code EvalSession.passAtK} samples training queries as training does, and {@code PassAtK} is the unbiased pass@k
 * estimator of Chen et al. How the main job uses them: {@code dev.toolcoach.brain.taskjob}.
 */
package dev.toolcoach.brain.eval;
