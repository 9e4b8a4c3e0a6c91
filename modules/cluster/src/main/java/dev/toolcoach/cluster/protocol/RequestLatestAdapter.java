package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/**
 * An engine that starts late, missed chunks or got a corrupt set asks for the latest adapter; the publisher
 * sends its parts to {@code replyTo} only, and only if it is newer than {@code sinceVersion}.
 */
public record RequestLatestAdapter(int sinceVersion, ActorRef<AdapterReceiverCommand> replyTo)
        implements AdapterPublisherCommand, CborSerializable {
    public RequestLatestAdapter {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
