package dev.toolcoach.brain.run;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.learn.core.TrainingMetrics;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One line of a run's {@code metrics.jsonl}: one learner step.
 *
 * @param step           the learner's step count after it
 * @param version        the policy version after it
 * @param groups         groups scored in the step
 * @param dropped        groups the reward could not score
 * @param meanReward     mean reward of the step's traces
 * @param accuracy       share of the step's traces that solved their example (by the task's own reward)
 * @param sampledMeanReward mean reward of every rollout sampled for the step: its traces and those of the groups dropped
 *                       before it for lack of signal (dynamic sampling drops mostly groups all right, so the trained
 *                       figures understate how well the policy does); NaN in lines written before it was recorded
 * @param sampledAccuracy share of those rollouts that solved their example
 * @param rolloutsPerSec traces the step trained on, over the wall time since the previous step
 * @param elapsedSec     wall time since the job started
 * @param groupsSampled  groups (one query each) that closed for the step: its batch and every group dropped since the
 *                       previous step (with dynamic sampling, those whose rewards were all equal)
 * @param informativeFraction share of the sampled groups the step could learn from (GRPO: rewards not all equal)
 * @param learner        the algorithm's own figures (loss, ratio, clip fractions, KL, entropy, grad norm, ...)
 * @param meanPolicyLag  over the step's traces, policy versions between the one trained from and the oldest that
 *                       generated a token of the trace (0: on-policy)
 * @param maxPolicyLag   the largest of those lags
 * @param toolCalls      the step's traces' tool results, by tool (empty in lines written before it was recorded)
 * @param trainSec       wall time of the learner's update (the rest of the step's wall time the learner waited for
 *                       rollouts); NaN in lines written before it was recorded
 */
public record StepLine(long step, int version, int groups, int dropped,
                       @JsonProperty("mean_reward") double meanReward, double accuracy,
                       @JsonProperty("sampled_mean_reward") Double sampledMeanReward,
                       @JsonProperty("sampled_accuracy") Double sampledAccuracy,
                       @JsonProperty("rollouts_per_sec") double rolloutsPerSec,
                       @JsonProperty("elapsed_sec") double elapsedSec,
                       @JsonProperty("groups_sampled") int groupsSampled,
                       @JsonProperty("informative_fraction") double informativeFraction, TrainingMetrics learner,
                       @JsonProperty("mean_policy_lag") double meanPolicyLag, @JsonProperty("max_policy_lag") int maxPolicyLag,
                       @JsonProperty("tool_calls") Map<String, ToolCallStats> toolCalls,
                       @JsonProperty("train_sec") Double trainSec) {
    public StepLine {
        trainSec = trainSec == null ? Double.NaN : trainSec;
        sampledMeanReward = sampledMeanReward == null ? Double.NaN : sampledMeanReward;
        sampledAccuracy = sampledAccuracy == null ? Double.NaN : sampledAccuracy;
        toolCalls = toolCalls == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(toolCalls));
    }
}
