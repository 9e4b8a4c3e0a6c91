package dev.toolcoach.cluster.testing;

import dev.toolcoach.cluster.coach.CoachSettings;
import dev.toolcoach.cluster.job.GroupPlan;

import java.time.Duration;

/** Group plans and coach settings for the cluster's tests: a job without dynamic sampling, the default re-dispatch cap. */
public final class Plans {
    /** Re-dispatches of one rollout before its group is given up, as the job controller's default. */
    public static final int MAX_REDISPATCHES = 3;

    private Plans() {
    }

    /** {@code groupLimit} groups in all, none refilled: the sample limit is the group limit. */
    public static GroupPlan plan(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit) {
        return new GroupPlan(groupSize, groupsPerStep, maxPolicyLag, groupLimit, groupLimit);
    }

    public static CoachSettings coach(GroupPlan plan, Duration rolloutTimeout) {
        return new CoachSettings(plan, rolloutTimeout, MAX_REDISPATCHES);
    }
}
