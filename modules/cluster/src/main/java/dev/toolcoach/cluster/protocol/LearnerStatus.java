package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/**
 * The learner's side of a job's progress.
 *
 * @param steps             training steps done in this learner's lifetime (a resumed job counts from its checkpoint)
 * @param policyVersion     the adapter version the learner holds
 * @param accounts          its counts of traces and groups
 * @param groupsWaiting     complete groups waiting for scoring or a step
 * @param lastMeanReward    mean reward of the last step's traces, NaN before the first step
 * @param lastGroupsSampled groups (queries) that closed for the last step: its batch and the groups dropped before it
 * @param lastInformativeFraction of those, the share the step could learn from, NaN before the first step
 * @param training          a step is running now
 * @param finished          every group of the job is closed
 */
public record LearnerStatus(long steps, int policyVersion, LearnerAccounts accounts, long groupsWaiting, double lastMeanReward,
                            long lastGroupsSampled, double lastInformativeFraction, boolean training, boolean finished)
        implements CborSerializable {
    public LearnerStatus {
        Objects.requireNonNull(accounts, "accounts");
    }
}
