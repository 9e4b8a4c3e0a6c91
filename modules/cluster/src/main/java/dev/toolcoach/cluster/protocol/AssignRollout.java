package dev.toolcoach.cluster.protocol;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The coach hands one rollout to an athlete that asked for work.
 *
 * @param rolloutId     {@code <groupId>/<i>}, unique in the job; the learner discards a second trace with it
 * @param groupId       the query group (one query, G rollouts) the learner scores together
 * @param queryId       the training example's id
 * @param example       the example itself, JSON-shaped (maps, lists, strings, numbers, booleans)
 * @param policyVersion the newest adapter version the coach has heard of; the athlete's engine may lag it
 */
public record AssignRollout(String rolloutId, String groupId, String queryId, Map<String, Object> example, long policyVersion)
        implements AthleteCommand, CborSerializable {
    public AssignRollout {
        Objects.requireNonNull(rolloutId, "rolloutId");
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(queryId, "queryId");
        example = Collections.unmodifiableMap(new LinkedHashMap<>(example));
    }
}
