package dev.toolcoach.trace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One call the model asked for: a tool name and its JSON arguments.
 *
 * <p>Argument values are what Jackson reads from JSON (String, Integer, Long, Double, Boolean,
 * List, Map, or null), so an integer literal stays distinguishable from a float for call checking.
 * Argument order is kept as the model wrote it.
 */
public record ToolCall(String name, Map<String, Object> arguments) {
    public ToolCall {
        Objects.requireNonNull(name, "name");
        arguments = arguments == null
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }
}
