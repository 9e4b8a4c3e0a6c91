package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;
import dev.toolcoach.trace.ToolCall;

import java.util.List;
import java.util.Objects;

/**
 * Run one turn's tool calls for a trajectory; the server answers {@link ToolCallResults} with one
 * result per call, in call order. Arguments are JSON-shaped values, so the message travels as CBOR.
 *
 * @param trajectoryId stateful tools keep per-trajectory state under it
 */
public record ExecuteToolCalls(String trajectoryId, List<ToolCall> calls, ActorRef<ToolCallResults> replyTo)
        implements ToolServerCommand, CborSerializable {
    public ExecuteToolCalls {
        Objects.requireNonNull(trajectoryId, "trajectoryId");
        Objects.requireNonNull(replyTo, "replyTo");
        calls = List.copyOf(calls);
    }
}
