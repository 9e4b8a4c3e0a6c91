package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;

import java.util.Objects;

/** A rollout the scheduler gave to an athlete; the actor delivers {@code message} to {@code athlete}. */
public record Assignment<A>(A athlete, AssignRollout message) {
    public Assignment {
        Objects.requireNonNull(athlete, "athlete");
        Objects.requireNonNull(message, "message");
    }
}
