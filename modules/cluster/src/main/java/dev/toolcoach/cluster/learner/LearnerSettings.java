package dev.toolcoach.cluster.learner;

/**
 * How the learner batches a job's groups; the same numbers the coach runs the job with.
 *
 * @param groupSize          rollouts per group (G)
 * @param groupsPerStep      groups per training step; a smaller last batch trains once no other group can come
 * @param maxPolicyLag       a group whose oldest token is more versions behind than this is dropped as stale
 * @param groupLimit         groups the job opens in all
 * @param groupsClosedBefore groups already trained or dropped when this learner started (a resumed job)
 */
public record LearnerSettings(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit, long groupsClosedBefore) {
    public LearnerSettings {
        if (groupsPerStep < 1) throw new IllegalArgumentException("groups per step must be at least 1, was " + groupsPerStep);
        if (groupLimit < 1) throw new IllegalArgumentException("group limit must be at least 1, was " + groupLimit);
        if (groupsClosedBefore < 0 || groupsClosedBefore > groupLimit) {
            throw new IllegalArgumentException("groups closed before must be within 0.." + groupLimit + ", was " + groupsClosedBefore);
        }
    }
}
