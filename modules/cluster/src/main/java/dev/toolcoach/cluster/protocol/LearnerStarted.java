package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** From the learner when it starts: where the coach sends {@link DropGivenUpGroup}. */
public record LearnerStarted(ActorRef<LearnerCommand> learner) implements CoachCommand, CborSerializable {
    public LearnerStarted {
        Objects.requireNonNull(learner, "learner");
    }
}
