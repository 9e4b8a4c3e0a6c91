package dev.toolcoach.cluster.protocol;

import java.util.List;
import java.util.Objects;

/**
 * TILE's ADAPT for a job's athletes: calls to equivalent tools are served by Thompson sampling over the node's
 * replicated preferences ({@code toolcoach.tile}) in {@code context}.
 *
 * @param context    the context key of the job's calls (e.g. {@code task:finance})
 * @param equivalent the groups of equivalent tools (each group's first is the one offered), checked on the coach
 */
public record AdaptSpec(String context, List<List<String>> equivalent) implements CborSerializable {
    public AdaptSpec {
        Objects.requireNonNull(context, "context");
        equivalent = equivalent.stream().map(List::copyOf).toList();
    }
}
