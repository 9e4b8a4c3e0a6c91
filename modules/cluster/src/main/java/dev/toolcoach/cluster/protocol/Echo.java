package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/**
 * A round-trip probe any node's service actors answer: proves a peer is reachable through the real
 * transport and serializers, and measures the latency of the path.
 *
 * @param payload echoed back unchanged
 * @param replyTo where the {@link EchoReply} goes
 */
public record Echo(String payload, ActorRef<EchoReply> replyTo)
        implements AthleteCommand, ToolServerCommand, CborSerializable {
    public Echo {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
