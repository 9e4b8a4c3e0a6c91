/**
 * The reward SPI and the built-in rewards. Callers always score a whole group through
 * {@link dev.toolcoach.rewards.Reward}; a per-rollout {@link dev.toolcoach.tasks.TraceReward} or a
 * {@link dev.toolcoach.rewards.GroupReward} is wrapped into one. The example's fields reach a reward
 * as a typed {@link dev.toolcoach.tasks.RewardContext}. A group that cannot be scored is
 * {@link dev.toolcoach.rewards.GroupOutcome.Dropped dropped} with the reason, never given made-up scores.
 *
 * <p>A user's reward is a {@code RewardProvider} found by {@code ServiceLoader}, or a reward server: {@code HttpReward}
 * posts a group's rollouts as JSON and reads one score each back (its JSON contract), called with the key of the job
 * endpoint its URL is under. {@code tasks.TraceReward} is the one per-rollout reward type; {@code ToolUseReward} is
 * TILE's EVALUATE (success rate, 1/calls, retries, composite with the task reward).
 */
package dev.toolcoach.rewards;
