package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/**
 * Work pulling: an athlete is free for {@code count} more rollouts. The coach never has more of an
 * athlete's rollouts in flight than it asked for; each {@link AssignRollout} uses up one.
 */
public record RequestRollouts(ActorRef<AthleteCommand> athlete, int count) implements CoachCommand, CborSerializable {
    public RequestRollouts {
        Objects.requireNonNull(athlete, "athlete");
        if (count < 1) throw new IllegalArgumentException("an athlete must ask for at least 1 rollout, asked for " + count);
    }
}
