package dev.toolcoach.cluster.protocol;

/**
 * The learner's side of a job's progress.
 *
 * @param steps           training steps done in this learner's lifetime (a resumed job counts from its checkpoint)
 * @param policyVersion   the adapter version the learner holds
 * @param tracesReceived  traces taken in (duplicates included)
 * @param duplicates      traces discarded as already held or of a closed group
 * @param groupsTrained   groups a step learned from
 * @param groupsSkipped   groups nothing could be learned from (all rewards equal): dropped before a step when sampling
 *                        dynamically, else skipped by a step
 * @param groupsDropped   groups dropped (stale, unusable, reward failed)
 * @param groupsWaiting   complete groups waiting for a step
 * @param lastMeanReward  mean reward of the last step's traces, NaN before the first step
 * @param lastGroupsSampled groups (queries) that closed for the last step: its batch and the groups dropped before it
 * @param lastInformativeFraction of those, the share the step could learn from, NaN before the first step
 * @param training        a step is running now
 * @param finished        every group of the job is closed
 */
public record LearnerStatus(long steps, int policyVersion, long tracesReceived, long duplicates, long groupsTrained,
                            long groupsSkipped, long groupsDropped, long groupsWaiting, double lastMeanReward,
                            long lastGroupsSampled, double lastInformativeFraction, boolean training, boolean finished) implements CborSerializable {
}
