package dev.toolcoach.agent;

import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The tools an agent can use: in-process in tests and the embedded mode, tool servers over the
 * cluster in production.
 */
public interface ToolEnvironment {

    /** The tools offered to the model; they go into the system prompt and the parser's validation. */
    List<ToolSpec> specs();

    /**
     * Starts all calls of one turn at once for the trajectory {@code trajectoryId} (stateful tools
     * keep per-trajectory state under it) and returns one result stage per call, in call order.
     * The calls must be able to run concurrently; the agent loop waits for all of them with its own
     * per-call timeout, so an implementation never has to block the caller.
     */
    List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls);

    /**
     * A line or two the system prompt of trajectory {@code trajectoryId} ends with (e.g. TILE's tool preferences), naming
     * only tools of {@code offered}; empty: none (the default).
     */
    default Optional<String> promptHint(String trajectoryId, List<ToolSpec> offered) {
        return Optional.empty();
    }

    /** Releases per-trajectory state once the run is over. */
    default CompletionStage<Void> release(String trajectoryId) {
        return CompletableFuture.completedFuture(null);
    }
}
