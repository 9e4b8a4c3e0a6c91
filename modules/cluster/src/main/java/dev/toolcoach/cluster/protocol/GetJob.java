package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** An athlete node asks the running job what it needs to take part; the announcer answers {@link JobSpec}. */
public record GetJob(ActorRef<JobSpec> replyTo) implements JobCommand, CborSerializable {
    public GetJob {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
