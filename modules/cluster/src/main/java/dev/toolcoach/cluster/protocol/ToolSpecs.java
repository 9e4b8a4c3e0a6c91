package dev.toolcoach.cluster.protocol;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;
import java.util.Objects;

/** The tools of one suite, with their JSON-schema parameters, as the server hosting it offers them. */
public record ToolSpecs(String suite, List<ToolSpec> specs) implements CborSerializable {
    public ToolSpecs {
        Objects.requireNonNull(suite, "suite");
        specs = List.copyOf(specs);
    }
}
