package dev.toolcoach.retrieval.eval;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiServer;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.openai.ServerSettings;
import dev.toolcoach.retrieval.HybridRetriever;
import dev.toolcoach.retrieval.HybridStats;
import dev.toolcoach.retrieval.catalog.PooledCatalog;
import dev.toolcoach.retrieval.lexical.LexicalRetriever;
import dev.toolcoach.retrieval.llm.FilterSettings;
import dev.toolcoach.retrieval.llm.LlmToolFilter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Recall of the retrievers on the catalog pooled from BFCL, Glaive and xLAM, asked every BFCL question. */
class RecallOnSharedDataTest {

    private static PooledCatalog pooled;
    private static BfclCases bfcl;
    private static LexicalRetriever lexical;

    private static String missingData;

    @BeforeAll
    static void load() {
        String root = System.getProperty("toolcoach.shared.data", "");
        Path data = Path.of(root);
        if (root.isEmpty() || !Files.isDirectory(data.resolve("bfcl")) || !Files.isDirectory(data.resolve("toolcall"))) {
            missingData = "shared data (bfcl/, toolcall/) not found at '" + root + "': skipping the recall tests";
            return;
        }
        pooled = PooledCatalog.load(data);
        bfcl = BfclCases.load(data);
        lexical = new LexicalRetriever(pooled.catalog());
    }

    @BeforeEach
    void needsData() {
        assumeTrue(missingData == null, missingData);
    }

    @AfterAll
    static void close() {
        if (lexical != null) lexical.close();
    }

    @Test
    void everySchemaOfTheFiveFilesIsPooledOnce() {
        assertEquals(5, pooled.sources().size());
        pooled.sources().forEach(s -> assertEquals(List.of(), s.skipped(), s.file()));
        int read = pooled.sources().stream().mapToInt(s -> s.tools().size()).sum();
        assertEquals(1959, read);
        assertEquals(read, pooled.catalog().size() + pooled.catalog().duplicatesDropped());
        assertEquals(800, bfcl.cases().size());
        // every ground-truth tool is an exact catalog entry, so a miss is the retriever's fault
        bfcl.cases().forEach(c -> c.relevant().forEach(t -> assertTrue(pooled.catalog().tools().contains(t), c.id())));
    }

    @Test
    void lexicalRecallStaysAboveItsFloor() {
        RecallReport report = new RecallEvaluator(List.of(1, 3, 5, 10)).evaluate(lexical, bfcl.cases());
        // measured 0.618 / 0.839 / 0.913 / 0.955 (default boosts); floors catch regressions, not noise
        assertTrue(report.recallAt(5) >= 0.88, report.format());
        assertTrue(report.recallAt(1) >= 0.55, report.format());
        for (String group : List.of("simple", "multiple", "parallel")) {
            assertTrue(report.recallAt(group, 10) >= 0.9, report.format());
        }
    }

    @Test
    void hybridFollowsTheModelThroughTheServerOnRealQuestions() {
        List<RetrievalCase> cases = bfcl.cases().stream().filter(c -> c.group().equals("multiple")).limit(8).toList();
        int shortlist = 10;
        ScriptedBackend model = new ScriptedBackend("selector");
        int expectedHits = 0;
        for (RetrievalCase c : cases) {
            // the scripted model names the ground truth; it can only be chosen if the shortlist holds it
            ToolSpec truth = c.relevant().get(0);
            model.reply("[\"" + truth.name() + "\"]");
            // naming it selects the first same-named shortlisted tool: a hit when that is the exact one
            Optional<ToolSpec> firstNamed = lexical.tools(c.query(), shortlist).stream()
                    .filter(t -> t.name().equals(truth.name())).findFirst();
            if (firstNamed.equals(Optional.of(truth))) expectedHits++;
        }
        assertTrue(expectedHits >= cases.size() - 2, "the shortlist should hold most answers: " + expectedHits);
        try (OpenAiServer server = OpenAiServer.start(model, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "selector")
                    .withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10)));
            HybridRetriever hybrid = new HybridRetriever(lexical, new LlmToolFilter(client, FilterSettings.defaults()), shortlist);

            RecallReport report = new RecallEvaluator(List.of(1)).evaluate(hybrid, cases);

            assertEquals(expectedHits, (int) Math.round(report.recallAt(1) * cases.size()), report.format());
            HybridStats stats = hybrid.stats();
            assertEquals(cases.size(), stats.queries());
            assertEquals(cases.size(), stats.modelSelections() + stats.unusableReplyFallbacks());
            assertEquals(cases.size(), model.requests().size());
        }
    }
}
