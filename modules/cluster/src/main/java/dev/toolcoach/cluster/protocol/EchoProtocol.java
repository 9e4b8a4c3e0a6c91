package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/**
 * The service probe every node's service actors (athletes, tool servers) answer.
 */
public final class EchoProtocol {

    private EchoProtocol() {
    }

    /**
     * A round-trip probe any node's service actors answer: proves a peer is reachable through the real
     * transport and serializers, and measures the latency of the path.
     *
     * @param payload echoed back unchanged
     * @param replyTo where the {@link EchoReply} goes
     */
    public record Echo(String payload, ActorRef<EchoReply> replyTo)
            implements AthleteProtocol.Command, ToolServerProtocol.Command, CborSerializable {
        public Echo {
            Objects.requireNonNull(payload, "payload");
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /**
     * The answer to an {@link Echo}.
     *
     * @param payload   the echoed payload
     * @param responder the full address of the actor that answered (names its node)
     */
    public record EchoReply(String payload, String responder) implements CborSerializable {
    }
}
