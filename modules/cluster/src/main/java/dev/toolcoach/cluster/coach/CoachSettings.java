package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.job.GroupPlan;

import java.time.Duration;
import java.util.Objects;

/**
 * How the coach runs a job.
 *
 * @param plan            the job's groups: their size, how many a step takes, the lag bound, the limits
 * @param rolloutTimeout  how long a rollout may stay with an athlete before it is dispatched again
 * @param maxRedispatches times one rollout may be dispatched again; taken back once more, its group is given up
 *                        (a poison query: an athlete that never answers, a tool that hangs it)
 */
public record CoachSettings(GroupPlan plan, Duration rolloutTimeout, int maxRedispatches) {

    public CoachSettings {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(rolloutTimeout, "rolloutTimeout");
        if (rolloutTimeout.isNegative() || rolloutTimeout.isZero()) {
            throw new IllegalArgumentException("rollout timeout must be positive, was " + rolloutTimeout);
        }
        if (maxRedispatches < 0) throw new IllegalArgumentException("max re-dispatches must be 0 or more, was " + maxRedispatches);
    }
}
