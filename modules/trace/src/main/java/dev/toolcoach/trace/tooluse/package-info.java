/**
 * TILE's OBSERVE: the tool-use record. {@code ToolUse.records} turns a {@code Trace} into {@code ToolUseRecord}s (one
 * per call, with its {@code ContextKey}), written as JSON Lines ({@code tool_use.jsonl}: {@code RunRecorder},
 * evaluations, {@code coach-node tools extract}); {@code ToolStats} sums them per context and tool ({@code coach-node
 * tools report}: a table and {@code brain.run.ToolUseChart}'s PNG); {@code RunToolUse} per run id: solved trajectories
 * and calls per solved task ({@code tools report --by-run}). A retry is a call whose previous call was the same tool
 * with other arguments; a repeat is an identical earlier call. The learner node exports the same per tool
 * ({@code cluster.metrics.ToolUseMetrics}), and {@code rewards.ToolUseReward} scores it (EVALUATE).
 */
package dev.toolcoach.trace.tooluse;
