/**
 * The reward SPI and the built-in rewards. Callers always score a whole group through
 * {@link dev.toolcoach.rewards.Reward}; a per-rollout {@link dev.toolcoach.tasks.TraceReward} or a
 * {@link dev.toolcoach.rewards.GroupReward} is wrapped into one. The example's fields reach a reward
 * as a typed {@link dev.toolcoach.tasks.RewardContext}. A group that cannot be scored is
 * {@link dev.toolcoach.rewards.GroupOutcome.Dropped dropped} with the reason, never given made-up scores.
 */
package dev.toolcoach.rewards;
