package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** Ask the coach for its accounts; it answers {@link Progress}. */
public record GetProgress(ActorRef<Progress> replyTo) implements CoachCommand, CborSerializable {
    public GetProgress {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
