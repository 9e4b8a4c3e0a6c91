package dev.toolcoach.retrieval.eval;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;
import java.util.Objects;

/**
 * One retrieval question: a query and the tools it needs (all of them must be retrieved for a hit).
 *
 * @param group a label to break results down by, e.g. the BFCL category
 */
public record RetrievalCase(String id, String group, String query, List<ToolSpec> relevant) {
    public RetrievalCase {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(query, "query");
        relevant = List.copyOf(relevant);
        if (relevant.isEmpty()) throw new IllegalArgumentException("case " + id + " names no relevant tool");
    }
}
