package dev.toolcoach.cluster.protocol;

import java.util.List;
import java.util.Objects;

/**
 * TILE's ADAPT for a job's athletes: calls to equivalent tools are served by Thompson sampling over the node's
 * replicated preferences ({@code toolcoach.tile}) in {@code context}, or, with {@code hint}, the sampled tool is named in
 * each rollout's system prompt (seeded by the job's seed and the rollout).
 *
 * @param context    the context key of the job's calls (e.g. {@code task:finance})
 * @param equivalent the groups of equivalent tools (each group's first is the one offered when routing), checked on the coach
 * @param hint       every tool offered and the preference hint in the system prompt instead of routing
 */
public record AdaptSpec(String context, List<List<String>> equivalent, boolean hint) implements CborSerializable {
    public AdaptSpec {
        Objects.requireNonNull(context, "context");
        equivalent = equivalent.stream().map(List::copyOf).toList();
    }
}
