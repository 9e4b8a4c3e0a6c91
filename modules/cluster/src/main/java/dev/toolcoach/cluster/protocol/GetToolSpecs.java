package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.Objects;

/** Ask a tool server which tools its suite offers; it answers {@link ToolSpecs}. */
public record GetToolSpecs(ActorRef<ToolSpecs> replyTo) implements ToolServerCommand, CborSerializable {
    public GetToolSpecs {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
