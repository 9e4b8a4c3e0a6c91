package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.Objects;

/**
 * A tool server's protocol: one turn's tool calls, the end of a trajectory, the suite's specs, the service
 * probe, and the answers.
 */
public final class ToolServerProtocol {

    private ToolServerProtocol() {
    }

    /**
     * Everything a tool server accepts. Sealed: the wire protocol is exactly the records listed; {@link Local} is for
     * messages the server sends itself (the skill library's poll), which never cross the wire.
     */
    public sealed interface Command permits ExecuteToolCalls, ReleaseTrajectory, GetToolSpecs, EchoProtocol.Echo,
            Local {
    }

    /** A message the tool server actor sends itself; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * Run one turn's tool calls for a trajectory; the server answers {@link ToolCallResults} with one
     * result per call, in call order. Arguments are JSON-shaped values, so the message travels as CBOR.
     *
     * @param trajectoryId stateful tools keep per-trajectory state under it
     */
    public record ExecuteToolCalls(String trajectoryId, List<ToolCall> calls, ActorRef<ToolCallResults> replyTo)
            implements Command, CborSerializable {
        public ExecuteToolCalls {
            Objects.requireNonNull(trajectoryId, "trajectoryId");
            Objects.requireNonNull(replyTo, "replyTo");
            calls = List.copyOf(calls);
        }
    }

    /** The trajectory is over: the server drops its per-trajectory tool state (idle state also expires on its own). */
    public record ReleaseTrajectory(String trajectoryId) implements Command, CborSerializable {
        public ReleaseTrajectory {
            Objects.requireNonNull(trajectoryId, "trajectoryId");
        }
    }

    /** Ask a tool server which tools its suite offers; it answers {@link ToolSpecs}. */
    public record GetToolSpecs(ActorRef<ToolSpecs> replyTo) implements Command, CborSerializable {
        public GetToolSpecs {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /** The answer to {@link ExecuteToolCalls}: one result per call, in call order. */
    public record ToolCallResults(String trajectoryId, List<ToolResult> results) implements CborSerializable {
        public ToolCallResults {
            Objects.requireNonNull(trajectoryId, "trajectoryId");
            results = List.copyOf(results);
        }
    }

    /** The tools of one suite, with their JSON-schema parameters, as the server hosting it offers them. */
    public record ToolSpecs(String suite, List<ToolSpec> specs) implements CborSerializable {
        public ToolSpecs {
            Objects.requireNonNull(suite, "suite");
            specs = List.copyOf(specs);
        }
    }
}
