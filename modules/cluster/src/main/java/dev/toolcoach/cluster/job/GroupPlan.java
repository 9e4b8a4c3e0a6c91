package dev.toolcoach.cluster.job;

/**
 * How a job's rollouts are grouped and batched: the numbers the coach opens groups by and the learner batches them by,
 * owned here once and checked once.
 *
 * @param groupSize     rollouts per query (G of GRPO)
 * @param groupsPerStep groups per training step; a smaller last batch trains once no other group can come
 * @param maxPolicyLag  how many adapter versions a group's oldest token may lag the policy it is trained into; 0 is the
 *                      synchronous mode
 * @param groupLimit    groups the job's steps take in all (steps × groups per step); a dropped group (stale, unusable,
 *                      unscored, given up, or without signal under dynamic sampling) does not count: a fresh query takes
 *                      its place while the sample limit allows, so steps stay full and are numbered 1, 2, ... without a gap
 * @param sampleLimit   groups the job may open in all, dropped ones included: the bound on refills and dynamic
 *                      sampling, so a job always ends; above {@code groupLimit} the job samples dynamically (a group whose
 *                      rewards are all equal is dropped for a fresh query, DAPO)
 */
public record GroupPlan(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit, long sampleLimit) {
    public GroupPlan {
        if (groupSize < 1) throw new IllegalArgumentException("group size must be at least 1, was " + groupSize);
        if (groupsPerStep < 1) throw new IllegalArgumentException("groups per step must be at least 1, was " + groupsPerStep);
        if (maxPolicyLag < 0) throw new IllegalArgumentException("max policy lag must be 0 or more, was " + maxPolicyLag);
        if (groupLimit < 1) throw new IllegalArgumentException("group limit must be at least 1, was " + groupLimit);
        if (sampleLimit < groupLimit) {
            throw new IllegalArgumentException("sample limit must be at least the group limit " + groupLimit + ", was " + sampleLimit);
        }
    }

    /**
     * The plan of a job of {@code steps} steps.
     *
     * @param oversampling the job samples at most this many times its groups (1: no dynamic sampling)
     */
    public static GroupPlan of(int groupSize, int groupsPerStep, int maxPolicyLag, int steps, int oversampling) {
        if (steps < 1) throw new IllegalArgumentException("steps must be at least 1, was " + steps);
        if (oversampling < 1) throw new IllegalArgumentException("oversampling must be at least 1, was " + oversampling);
        long groupLimit = Math.multiplyExact((long) steps, groupsPerStep);
        return new GroupPlan(groupSize, groupsPerStep, maxPolicyLag, groupLimit, Math.multiplyExact(groupLimit, oversampling));
    }

    /** A group whose rewards are all equal is dropped when scored and a fresh query takes its place. */
    public boolean dynamicSampling() {
        return sampleLimit > groupLimit;
    }

    /**
     * The bound on open groups. The learner takes {@code groupsPerStep} groups per version, so a group opened at version
     * v with fewer than {@code (lag + 1) × groupsPerStep} groups open (itself included) is trained by version v + lag, as
     * long as groups finish in about the order they open.
     */
    public int maxGroupsInFlight() {
        return Math.multiplyExact(maxPolicyLag + 1, groupsPerStep);
    }
}
