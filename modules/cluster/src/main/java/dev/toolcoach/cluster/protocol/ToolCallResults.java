package dev.toolcoach.cluster.protocol;

import dev.toolcoach.trace.ToolResult;

import java.util.List;
import java.util.Objects;

/** The answer to {@link ExecuteToolCalls}: one result per call, in call order. */
public record ToolCallResults(String trajectoryId, List<ToolResult> results) implements CborSerializable {
    public ToolCallResults {
        Objects.requireNonNull(trajectoryId, "trajectoryId");
        results = List.copyOf(results);
    }
}
