package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.llm.LlmToolFilter;
import dev.toolcoach.retrieval.llm.Selection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cheap retriever shortlists candidates from the whole catalog (typically the lexical one, top N),
 * then the model picks the relevant ones among them. When the model's reply is unusable or the
 * model cannot be reached, the answer is the shortlist's own top k; each such fallback is counted
 * and logged, never silent.
 */
public final class HybridRetriever implements ToolRetriever {

    private static final Logger LOG = LoggerFactory.getLogger(HybridRetriever.class);

    private final ToolRetriever shortlist;
    private final LlmToolFilter filter;
    private final int candidates;
    private final AtomicLong queries = new AtomicLong();
    private final AtomicLong modelSelections = new AtomicLong();
    private final AtomicLong unusableReplyFallbacks = new AtomicLong();
    private final AtomicLong failedCallFallbacks = new AtomicLong();

    /** @param candidates how many shortlisted tools the model is shown (at least k are always shown) */
    public HybridRetriever(ToolRetriever shortlist, LlmToolFilter filter, int candidates) {
        ToolRetriever.checkK(candidates);
        this.shortlist = shortlist;
        this.filter = filter;
        this.candidates = candidates;
    }

    @Override
    public List<ScoredTool> retrieve(String query, int k) {
        ToolRetriever.checkK(k);
        queries.incrementAndGet();
        List<ScoredTool> shortlisted = shortlist.retrieve(query, Math.max(candidates, k));
        if (shortlisted.isEmpty()) return List.of();
        List<ToolSpec> tools = shortlisted.stream().map(ScoredTool::tool).toList();
        Selection selection = filter.select(query, tools, k);
        if (selection instanceof Selection.Chosen chosen) {
            modelSelections.incrementAndGet();
            return chosen.scored();
        }
        if (selection instanceof Selection.Unusable unusable) {
            unusableReplyFallbacks.incrementAndGet();
            LOG.warn("tool selection reply unusable ({}), using the shortlist order; reply: {}", unusable.reason(), unusable.reply());
        } else {
            failedCallFallbacks.incrementAndGet();
            LOG.warn("{}; using the shortlist order", ((Selection.Failed) selection).reason());
        }
        return shortlisted.subList(0, Math.min(k, shortlisted.size()));
    }

    public HybridStats stats() {
        return new HybridStats(queries.get(), modelSelections.get(), unusableReplyFallbacks.get(), failedCallFallbacks.get());
    }
}
