package dev.toolcoach.retrieval.eval;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.catalog.PooledCatalog;
import dev.toolcoach.retrieval.catalog.SchemaReader;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.PossibleCall;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.tasks.datasets.LoadResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The BFCL v3 questions as retrieval cases: the query is the user's question, the relevant tools are
 * the functions its ground truth calls (as offered in the question, so they match catalog entries
 * exactly).
 *
 * @param cases   one per loaded question
 * @param sources what the BFCL loader read per category, with its skipped and filtered records
 */
public record BfclCases(List<RetrievalCase> cases, List<LoadResult<CallingExample>> sources) {

    public BfclCases {
        cases = List.copyOf(cases);
        sources = List.copyOf(sources);
    }

    public static BfclCases load(Path dataRoot) {
        BfclLoader loader = new BfclLoader();
        List<RetrievalCase> cases = new ArrayList<>();
        List<LoadResult<CallingExample>> sources = new ArrayList<>();
        for (String category : PooledCatalog.BFCL_CATEGORIES) {
            LoadResult<CallingExample> loaded = loader.load(PooledCatalog.bfclQuestions(dataRoot, category),
                    PooledCatalog.bfclAnswers(dataRoot, category));
            sources.add(loaded);
            loaded.items().forEach(example -> cases.add(toCase(example)));
        }
        return new BfclCases(cases, sources);
    }

    private static RetrievalCase toCase(CallingExample example) {
        List<ToolSpec> relevant = example.expected().stream().map(PossibleCall::name).distinct()
                .map(name -> SchemaReader.toolSpec(example.function(name).orElseThrow(() -> new IllegalStateException(
                        example.id() + " expects " + name + ", which it does not offer"))))
                .toList();
        return new RetrievalCase(example.id(), example.category().name().toLowerCase(Locale.ROOT), example.query(), relevant);
    }

    /** Per category: loaded, skipped as malformed, and filtered for invalid gold calls. */
    public String summary() {
        StringBuilder out = new StringBuilder("BFCL questions: " + cases.size());
        sources.forEach(s -> out.append("\n  ").append(s.summary()));
        return out.toString();
    }
}
