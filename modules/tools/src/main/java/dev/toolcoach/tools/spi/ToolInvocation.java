package dev.toolcoach.tools.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One call as a tool sees it.
 *
 * @param trajectoryId the rollout the call belongs to (keys per-trajectory state)
 * @param arguments    validated JSON arguments (String, Number, Boolean, List, Map, null)
 * @param sessions     the trajectory's sessions of stateful plugins
 */
public record ToolInvocation(String trajectoryId, Map<String, Object> arguments, SessionScope sessions) {
    public ToolInvocation {
        Objects.requireNonNull(trajectoryId, "trajectoryId");
        Objects.requireNonNull(sessions, "sessions");
        arguments = arguments == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }
}
