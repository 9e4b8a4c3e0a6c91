package dev.toolcoach.agent;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One rollout to run: a query and the ids that place its trace in its GRPO group.
 *
 * @param metadata copied into the trace (gold answers, athlete id, ...)
 * @param seed     the sampler's seed for this rollout; empty: the loop's {@link AgentConfig#sampling()} seed
 * @param tools    the tools offered to the model in this rollout (e.g. the few a retriever chose for its query);
 *                 empty: every tool of the loop's {@link ToolEnvironment}
 */
public record RolloutRequest(String rolloutId, String groupId, String queryId, String query,
                             Map<String, Object> metadata, OptionalLong seed, List<ToolSpec> tools) {
    public RolloutRequest {
        Objects.requireNonNull(rolloutId, "rolloutId");
        Objects.requireNonNull(query, "query");
        metadata = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        seed = seed == null ? OptionalLong.empty() : seed;
        tools = tools == null ? List.of() : List.copyOf(tools);
    }

    /** A request offering every tool of the environment. */
    public RolloutRequest(String rolloutId, String groupId, String queryId, String query, Map<String, Object> metadata,
                          OptionalLong seed) {
        this(rolloutId, groupId, queryId, query, metadata, seed, List.of());
    }

    /** A request sampled with the loop's own seed, offering every tool of the environment. */
    public RolloutRequest(String rolloutId, String groupId, String queryId, String query, Map<String, Object> metadata) {
        this(rolloutId, groupId, queryId, query, metadata, OptionalLong.empty());
    }

    /** This request offering only {@code offered} (empty: every tool of the environment). */
    public RolloutRequest withTools(List<ToolSpec> offered) {
        return new RolloutRequest(rolloutId, groupId, queryId, query, metadata, seed, offered);
    }

    /**
     * This request with its own seed, derived from {@code baseSeed} and the rollout id (the one place the
     * formula lives), so the rollouts of a group differ yet each one is reproducible.
     */
    public RolloutRequest seededFrom(long baseSeed) {
        return new RolloutRequest(rolloutId, groupId, queryId, query, metadata,
                OptionalLong.of(baseSeed * 31 + rolloutId.hashCode()), tools);
    }
}
