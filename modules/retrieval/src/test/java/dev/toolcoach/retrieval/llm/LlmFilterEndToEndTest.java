package dev.toolcoach.retrieval.llm;

import dev.toolcoach.openai.BackendRequest;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.testkit.ScriptedServer;
import dev.toolcoach.retrieval.HybridRetriever;
import dev.toolcoach.retrieval.HybridStats;
import dev.toolcoach.retrieval.SampleTools;
import dev.toolcoach.retrieval.ScoredTool;
import dev.toolcoach.retrieval.ToolCatalog;
import dev.toolcoach.retrieval.ToolRetrievalException;
import dev.toolcoach.retrieval.lexical.LexicalRetriever;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LLM filter and the hybrid talk to the real OpenAI-compatible server over loopback; the model is scripted. */
class LlmFilterEndToEndTest {

    private static final String MODEL = "selector-70b";

    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start(MODEL);
    private static LexicalRetriever lexical;

    @BeforeAll
    static void start() {
        lexical = new LexicalRetriever(SampleTools.catalog());
    }

    @BeforeEach
    void freshScript() {
        server.backend().reset();
    }

    @AfterAll
    static void stop() {
        lexical.close();
    }

    private static LlmToolFilter filter() {
        OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)
                .withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10)));
        return new LlmToolFilter(client, FilterSettings.defaults());
    }

    @Test
    void promptShowsQueryAndEveryCandidateAndTheJsonAnswerIsFollowed() {
        server.backend().reply("[\"translate_text\", \"get_current_weather\"]");
        LlmToolFilter filter = filter();
        LlmFilterRetriever retriever = new LlmFilterRetriever(SampleTools.catalog(), filter, 50);

        List<ScoredTool> found = retriever.retrieve("Translate the Paris forecast into French", 5);

        assertEquals(List.of(SampleTools.TRANSLATE, SampleTools.WEATHER), found.stream().map(ScoredTool::tool).toList());
        assertEquals(List.of(1.0, 0.5), found.stream().map(ScoredTool::score).toList());
        BackendRequest asked = server.backend().requests().get(0);
        String prompt = asked.messages().get(asked.messages().size() - 1).content();
        assertTrue(prompt.contains("Translate the Paris forecast into French"), prompt);
        for (var tool : SampleTools.catalog().tools()) {
            assertTrue(prompt.contains("- " + tool.name() + ": " + tool.description()), tool.name());
        }
        assertTrue(prompt.contains("at most 5"), prompt);
        assertTrue(asked.messages().get(0).content().contains(FilterSettings.DEFAULT_GUIDELINES), asked.messages().get(0).content());
        assertEquals(new FilterStats(1, 1, 0, 0, 0, 0), filter.stats());
    }

    @Test
    void freeTextAnswerWithUnknownNamesIsReadAndTheUnknownCounted() {
        server.backend().reply("You need `sendEmail`, and maybe `lookup_contact` first.");
        LlmToolFilter filter = filter();

        Selection s = filter.select("email Bob", SampleTools.catalog().tools(), 3);

        Selection.Chosen chosen = (Selection.Chosen) s;
        assertEquals(List.of(SampleTools.EMAIL), chosen.tools());
        assertEquals(ReplyForm.FREE_TEXT, chosen.form());
        assertEquals(List.of("lookup_contact"), chosen.unknownNames());
        assertEquals(new FilterStats(1, 0, 1, 0, 0, 1), filter.stats());
    }

    @Test
    void aSharedNameSelectsEverySameNamedCandidateUpToTheLimit() {
        server.backend().reply("[\"get_stock_price\"]").reply("[\"get_stock_price\"]");
        LlmToolFilter filter = filter();

        assertEquals(List.of(SampleTools.STOCK, SampleTools.STOCK_V2),
                ((Selection.Chosen) filter.select("ACME share price", SampleTools.catalog().tools(), 5)).tools());
        assertEquals(List.of(SampleTools.STOCK),
                ((Selection.Chosen) filter.select("ACME share price", SampleTools.catalog().tools(), 1)).tools());
    }

    @Test
    void malformedReplyIsAClearErrorForTheLlmRetrieverAndACountedFallbackForTheHybrid() {
        server.backend().reply("[{\"tool\": ").reply("[\"book_flight\"]").reply("Sorry, I am not sure.");
        LlmToolFilter filter = filter();
        LlmFilterRetriever llmOnly = new LlmFilterRetriever(SampleTools.catalog(), filter, 50);

        ToolRetrievalException e = assertThrows(ToolRetrievalException.class, () -> llmOnly.retrieve("weather in Oslo", 3));
        assertTrue(e.getMessage().contains("names none of the 6 candidates") && e.getMessage().contains("reply: [{\"tool\":"),
                e.getMessage());

        HybridRetriever hybrid = new HybridRetriever(lexical, filter, 4);
        List<ScoredTool> expected = lexical.retrieve("weather in Oslo", 2);
        assertEquals(expected, hybrid.retrieve("weather in Oslo", 2));
        assertEquals(expected, hybrid.retrieve("weather in Oslo", 2));
        assertEquals(new HybridStats(2, 0, 2, 0), hybrid.stats());
        assertEquals(new FilterStats(3, 0, 0, 3, 0, 1), filter.stats());
    }

    @Test
    void hybridShowsTheModelTheShortlistAndReturnsItsChoice() {
        server.backend().reply("[\"get_stock_price\"]");
        LlmToolFilter filter = filter();
        HybridRetriever hybrid = new HybridRetriever(lexical, filter, 2);
        String query = "latest price of a company share";
        List<ScoredTool> shortlist = lexical.retrieve(query, 2);

        List<ScoredTool> found = hybrid.retrieve(query, 1);

        assertEquals(1, found.size());
        assertEquals("get_stock_price", found.get(0).tool().name());
        String prompt = server.backend().requests().get(0).messages().get(1).content();
        long listed = prompt.lines().filter(l -> l.startsWith("- ")).count();
        assertEquals(shortlist.size(), listed, prompt);
        shortlist.forEach(s -> assertTrue(prompt.contains("- " + s.tool().name() + ": " + s.tool().description())));
        assertEquals(new HybridStats(1, 1, 0, 0), hybrid.stats());
    }

    @Test
    void aFailingModelIsACountedFallbackForTheHybrid() {
        server.backend().fail("model crashed");
        LlmToolFilter filter = filter();
        HybridRetriever hybrid = new HybridRetriever(lexical, filter, 4);

        assertEquals(lexical.retrieve("translate text", 3), hybrid.retrieve("translate text", 3));
        assertEquals(new HybridStats(1, 0, 0, 1), hybrid.stats());
        assertEquals(1, filter.stats().failedCalls());
    }

    @Test
    void anUnreachableModelIsAClearErrorForTheLlmRetriever() {
        OpenAiClient nowhere = new OpenAiClient(OpenAiConfig.of("http://127.0.0.1:1/v1", MODEL)
                .withRetries(0, Duration.ofMillis(10), Duration.ofMillis(10)));
        LlmFilterRetriever retriever = new LlmFilterRetriever(SampleTools.catalog(),
                new LlmToolFilter(nowhere, FilterSettings.defaults()), 50);

        ToolRetrievalException e = assertThrows(ToolRetrievalException.class, () -> retriever.retrieve("weather", 1));
        assertTrue(e.getMessage().contains("cannot reach"), e.getMessage());
    }

    @Test
    void aCatalogTooLargeForOnePromptIsRefused() {
        ToolCatalog catalog = SampleTools.catalog();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LlmFilterRetriever(catalog, filter(), 5));
        assertTrue(e.getMessage().contains("HybridRetriever"), e.getMessage());
    }
}
