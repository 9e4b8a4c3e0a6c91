package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/**
 * The adapter publisher's protocol: an engine's request for the latest adapter (the learner's publish and
 * the job's stop are local to the learner's node).
 */
public final class AdapterPublisherProtocol {

    private AdapterPublisherProtocol() {
    }

    /**
     * Everything the adapter publisher accepts. Sealed: the wire protocol is exactly the records listed; {@link Local}
     * is for what the learner's node tells it in-process (publish a version, stop), which never crosses the wire.
     */
    public sealed interface Command permits RequestLatestAdapter, Local {
    }

    /** A message from the publisher's own node; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * An engine that starts late, missed chunks or got a corrupt set asks for the latest adapter; the publisher
     * sends its parts to {@code replyTo} only, and only if it is newer than {@code sinceVersion}.
     */
    public record RequestLatestAdapter(int sinceVersion, ActorRef<AdapterReceiverProtocol.Command> replyTo)
            implements Command, CborSerializable {
        public RequestLatestAdapter {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }
}
