package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;

import java.util.List;

/**
 * Picks the tools relevant to a query from a catalog, so that an agent facing a large catalog is
 * shown only a few. Implementations are thread-safe.
 */
public interface ToolRetriever {

    /**
     * The at most {@code k} catalog tools that best match {@code query}, best first.
     *
     * @throws IllegalArgumentException when {@code k < 1}
     * @throws ToolRetrievalException   when the retriever cannot give an answer (for example, a model's unusable reply)
     */
    List<ScoredTool> retrieve(String query, int k);

    /** The tools of {@link #retrieve}, without their scores. */
    default List<ToolSpec> tools(String query, int k) {
        return retrieve(query, k).stream().map(ScoredTool::tool).toList();
    }

    /** Rejects a non-positive {@code k} with a clear message. */
    static void checkK(int k) {
        if (k < 1) throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
}
