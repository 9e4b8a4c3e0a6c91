package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** Ask the coach for its cursor, to store with a checkpoint; it answers {@link CoachCursor}. */
public record GetCursor(ActorRef<CoachCursor> replyTo) implements CoachCommand, CborSerializable {
    public GetCursor {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
