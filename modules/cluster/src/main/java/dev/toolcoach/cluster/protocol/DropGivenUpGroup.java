package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/**
 * From the coach: a rollout of the group was taken back more often than the coach re-dispatches one, so the group
 * is given up. Unless the learner already holds the whole group, it drops it and answers {@link GroupDropped} with
 * {@link GroupDropped.Reason#REDISPATCH_LIMIT}; a trace of it that arrives later is a duplicate.
 */
public record DropGivenUpGroup(String groupId) implements LearnerCommand, CborSerializable {
    public DropGivenUpGroup {
        Objects.requireNonNull(groupId, "groupId");
    }
}
