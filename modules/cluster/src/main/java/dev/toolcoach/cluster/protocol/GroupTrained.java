package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/** From the learner: the group went into the update that produced adapter {@code version}; the group closes. */
public record GroupTrained(String groupId, int version) implements CoachCommand, CborSerializable {
    public GroupTrained {
        Objects.requireNonNull(groupId, "groupId");
    }
}
