package dev.toolcoach.cluster.coach;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One training example as the coach sees it: an id and a JSON-shaped payload it hands to athletes
 * without looking inside.
 */
public record TrainingQuery(String id, Map<String, Object> example) {
    public TrainingQuery {
        Objects.requireNonNull(id, "id");
        example = Collections.unmodifiableMap(new LinkedHashMap<>(example));
    }
}
