/**
 * Tasks and their examples: {@code Task}, {@code TaskExample} (messages, the example's own tool specs, the oracle's
 * turns, gold facts; {@code rolloutRequest} makes a rollout's request), oracles ({@code OracleRollout},
 * {@code OracleStep}), splits ({@code Split}), the one per-rollout reward type ({@code TraceReward} over a
 * {@code RewardContext}) and answer matcher ({@code AnswerMatcher}, {@code AnswerText}, {@code AnswerReward}), the
 * arithmetic, finance, email (Enron) and hpo (XGBoost tuning) tasks ({@code TaskRegistry}), {@code FunctionCallingTask}
 * (examples that bring their own tools: BFCL, xLAM, Glaive; loaders in {@code datasets}) and BFCL's AST call checker
 * ({@code calling}). A type two modules need about examples, rewards or answer matching lives here, once.
 */
package dev.toolcoach.tasks;
