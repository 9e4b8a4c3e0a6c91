package dev.toolcoach.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One rollout to run: a query and the ids that place its trace in its GRPO group.
 *
 * @param metadata copied into the trace (gold answers, athlete id, ...)
 */
public record RolloutRequest(String rolloutId, String groupId, String queryId, String query,
                             Map<String, Object> metadata) {
    public RolloutRequest {
        Objects.requireNonNull(rolloutId, "rolloutId");
        Objects.requireNonNull(query, "query");
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }
}
