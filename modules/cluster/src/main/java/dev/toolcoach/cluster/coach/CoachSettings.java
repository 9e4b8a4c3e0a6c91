package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;

import java.time.Duration;
import java.util.Objects;

/**
 * How the coach runs a job.
 *
 * @param groupSize      rollouts per query (G of GRPO)
 * @param groupsPerStep  groups the learner trains on per update
 * @param maxPolicyLag   how many adapter versions a group's rollouts may lag the adapter it is trained into
 * @param rolloutTimeout how long a rollout may stay with an athlete before it is dispatched again
 * @param groupLimit     groups the job's steps take in all (steps × groups per step); a dropped group (any
 *                       {@link GroupDropped.Reason}: without signal under dynamic sampling, stale, unusable, unscored,
 *                       given up) does not count: a fresh query takes its place while the sample limit allows
 * @param sampleLimit    groups the job may open in all, dropped ones included: the bound on refills and dynamic
 *                       sampling's over-sampling, so a job always ends ({@code groupLimit} when it does not sample
 *                       dynamically)
 * @param maxRedispatches times one rollout may be dispatched again; taken back once more, its group is given up
 *                       (a poison query: an athlete that never answers, a tool that hangs it)
 */
public record CoachSettings(int groupSize, int groupsPerStep, int maxPolicyLag, Duration rolloutTimeout, long groupLimit,
                            long sampleLimit, int maxRedispatches) {

    /** Re-dispatches of one rollout before its group is given up, unless the job says otherwise. */
    public static final int DEFAULT_MAX_REDISPATCHES = 3;

    public CoachSettings {
        Objects.requireNonNull(rolloutTimeout, "rolloutTimeout");
        if (groupSize < 1) throw new IllegalArgumentException("group size must be at least 1, was " + groupSize);
        if (groupsPerStep < 1) throw new IllegalArgumentException("groups per step must be at least 1, was " + groupsPerStep);
        if (maxPolicyLag < 0) throw new IllegalArgumentException("max policy lag must be 0 or more, was " + maxPolicyLag);
        if (rolloutTimeout.isNegative() || rolloutTimeout.isZero()) {
            throw new IllegalArgumentException("rollout timeout must be positive, was " + rolloutTimeout);
        }
        if (groupLimit < 1) throw new IllegalArgumentException("group limit must be at least 1, was " + groupLimit);
        if (sampleLimit < groupLimit) {
            throw new IllegalArgumentException("sample limit must be at least the group limit " + groupLimit + ", was " + sampleLimit);
        }
        if (maxRedispatches < 0) throw new IllegalArgumentException("max re-dispatches must be 0 or more, was " + maxRedispatches);
    }

    /** Without dynamic sampling, with {@link #DEFAULT_MAX_REDISPATCHES}. */
    public CoachSettings(int groupSize, int groupsPerStep, int maxPolicyLag, Duration rolloutTimeout, long groupLimit) {
        this(groupSize, groupsPerStep, maxPolicyLag, rolloutTimeout, groupLimit, groupLimit, DEFAULT_MAX_REDISPATCHES);
    }

    /**
     * The bound on open groups. The learner takes {@code groupsPerStep} groups per version, so a group
     * opened at version v with fewer than {@code (lag + 1) × groupsPerStep} groups open (itself included)
     * is trained by version v + lag, as long as groups finish in about the order they open.
     */
    public int maxGroupsInFlight() {
        return Math.multiplyExact(maxPolicyLag + 1, groupsPerStep);
    }
}
