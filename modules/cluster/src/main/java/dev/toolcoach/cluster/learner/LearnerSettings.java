package dev.toolcoach.cluster.learner;

/**
 * How the learner batches a job's groups; the same numbers the coach runs the job with.
 *
 * @param groupSize          rollouts per group (G)
 * @param groupsPerStep      groups per training step; a smaller last batch trains once no other group can come
 * @param maxPolicyLag       a group whose oldest token is more versions behind than this is dropped as stale
 * @param groupLimit         groups the job's steps take in all (steps × groups per step); a dropped group (stale,
 *                           unusable, unscored, given up, or without signal under dynamic sampling) does not count: a
 *                           fresh query takes its place while the sample limit allows, so the steps stay full and are
 *                           numbered 1, 2, ... without a gap
 * @param sampleLimit        groups the job may open in all, dropped ones included (the bound on refills and dynamic
 *                           sampling, so a job always ends); {@code groupLimit} when the job does not sample dynamically
 * @param dynamicSampling    a group whose rewards are all equal is dropped as soon as it is scored, and a fresh query
 *                           takes its place (DAPO's dynamic sampling); otherwise it goes into a step, which skips it
 * @param groupsClosedBefore groups already trained or dropped when this learner started (a resumed job)
 * @param droppedBefore      of those, the groups dropped
 */
public record LearnerSettings(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit, long sampleLimit,
                              boolean dynamicSampling, long groupsClosedBefore, long droppedBefore) {
    public LearnerSettings {
        if (groupsPerStep < 1) throw new IllegalArgumentException("groups per step must be at least 1, was " + groupsPerStep);
        if (groupLimit < 1) throw new IllegalArgumentException("group limit must be at least 1, was " + groupLimit);
        if (sampleLimit < groupLimit) {
            throw new IllegalArgumentException("sample limit must be at least the group limit " + groupLimit + ", was " + sampleLimit);
        }
        if (droppedBefore < 0 || droppedBefore > groupsClosedBefore || groupsClosedBefore > sampleLimit
                || groupsClosedBefore - droppedBefore > groupLimit) {
            throw new IllegalArgumentException("groups closed before (" + groupsClosedBefore + ", " + droppedBefore
                    + " dropped) do not fit a job of " + groupLimit + " groups and " + sampleLimit + " samples");
        }
    }

    /** A job without dynamic sampling. */
    public LearnerSettings(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit, long groupsClosedBefore) {
        this(groupSize, groupsPerStep, maxPolicyLag, groupLimit, groupLimit, false, groupsClosedBefore, 0);
    }
}
