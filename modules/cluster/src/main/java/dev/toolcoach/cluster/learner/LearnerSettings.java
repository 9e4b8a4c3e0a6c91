package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.job.GroupPlan;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;

import java.util.Objects;
import java.util.Optional;

/**
 * How the learner batches a job's groups: the job's plan (the coach's too), and where a resumed job stands.
 *
 * @param plan               the job's groups: their size, how many a step takes, the lag bound, the limits
 * @param groupsClosedBefore groups already trained or dropped when this learner started (a resumed job)
 * @param droppedBefore      of those, the groups dropped
 */
public record LearnerSettings(GroupPlan plan, long groupsClosedBefore, long droppedBefore) {
    public LearnerSettings {
        Objects.requireNonNull(plan, "plan");
        if (droppedBefore < 0 || droppedBefore > groupsClosedBefore || groupsClosedBefore > plan.sampleLimit()
                || groupsClosedBefore - droppedBefore > plan.groupLimit()) {
            throw new IllegalArgumentException("groups closed before (" + groupsClosedBefore + ", " + droppedBefore
                    + " dropped) do not fit a job of " + plan.groupLimit() + " groups and " + plan.sampleLimit() + " samples");
        }
    }

    /** A new job, or one resumed where the coach's cursor in its checkpoint stands. */
    public static LearnerSettings of(GroupPlan plan, Optional<CoachCursor> resumed) {
        long dropped = resumed.map(c -> c.groupsDropped().total()).orElse(0L);
        return new LearnerSettings(plan, resumed.map(c -> c.groupsTrained() + dropped).orElse(0L), dropped);
    }
}
