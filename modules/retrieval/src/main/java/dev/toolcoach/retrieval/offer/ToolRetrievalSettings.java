package dev.toolcoach.retrieval.offer;

import java.util.Objects;

/**
 * Per query, offer the agent only the {@code k} tools a retriever chooses from the catalogue.
 *
 * @param mode       how they are chosen
 * @param k          tools offered per query
 * @param candidates the hybrid mode's BM25 shortlist shown to the model (at least {@code k})
 */
public record ToolRetrievalSettings(RetrievalMode mode, int k, int candidates) {

    /** The LLM mode refuses catalogues larger than this: their prompt would not fit a small model. */
    public static final int MAX_LLM_CATALOGUE = 100;

    public ToolRetrievalSettings {
        Objects.requireNonNull(mode, "mode");
        if (k < 1) throw new IllegalArgumentException("tool retrieval k must be at least 1, was " + k);
        if (candidates < k) throw new IllegalArgumentException("the hybrid shortlist (" + candidates + ") must hold at least k = " + k + " tools");
    }

    /** {@code mode} with {@code k} tools per query and a hybrid shortlist of {@code max(20, 4k)}. */
    public static ToolRetrievalSettings of(RetrievalMode mode, int k) {
        return new ToolRetrievalSettings(mode, k, Math.max(20, 4 * Math.max(k, 1)));
    }
}
