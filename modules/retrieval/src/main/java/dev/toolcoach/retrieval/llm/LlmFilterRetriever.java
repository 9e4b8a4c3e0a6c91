package dev.toolcoach.retrieval.llm;

import dev.toolcoach.retrieval.ScoredTool;
import dev.toolcoach.retrieval.ToolCatalog;
import dev.toolcoach.retrieval.ToolRetrievalException;
import dev.toolcoach.retrieval.ToolRetriever;

import java.util.List;

/**
 * Shows the model the whole catalog and returns the tools it names (ToolBrain's approach). Only
 * for catalogs small enough to list in one prompt; for large ones use the hybrid retriever.
 *  */
public final class LlmFilterRetriever implements ToolRetriever {

    private final ToolCatalog catalog;
    private final LlmToolFilter filter;

    /** @throws IllegalArgumentException when the catalog has more than {@code maxCatalogSize} tools */
    public LlmFilterRetriever(ToolCatalog catalog, LlmToolFilter filter, int maxCatalogSize) {
        if (catalog.size() > maxCatalogSize) {
            throw new IllegalArgumentException("a catalog of " + catalog.size() + " tools is too large to show the model (limit "
                    + maxCatalogSize + "); use HybridRetriever to shortlist candidates first");
        }
        this.catalog = catalog;
        this.filter = filter;
    }

    @Override
    public List<ScoredTool> retrieve(String query, int k) {
        ToolRetriever.checkK(k);
        Selection selection = filter.select(query, catalog.tools(), k);
        if (selection instanceof Selection.Chosen chosen) return chosen.scored();
        if (selection instanceof Selection.Unusable unusable) {
            throw new ToolRetrievalException("unusable tool selection: " + unusable.reason() + "; reply: " + unusable.reply());
        }
        throw new ToolRetrievalException(((Selection.Failed) selection).reason());
    }
}
