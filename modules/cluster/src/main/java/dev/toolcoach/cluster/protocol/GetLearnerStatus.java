package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** Ask the learner where the job stands; it answers {@link LearnerStatus}. */
public record GetLearnerStatus(ActorRef<LearnerStatus> replyTo) implements LearnerCommand, CborSerializable {
    public GetLearnerStatus {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
