package dev.toolcoach.retrieval.lexical;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.SampleTools;
import dev.toolcoach.retrieval.ScoredTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LexicalRetrieverTest {

    private static LexicalRetriever retriever;

    @BeforeAll
    static void index() {
        retriever = new LexicalRetriever(SampleTools.catalog());
    }

    @AfterAll
    static void close() {
        retriever.close();
    }

    @Test
    void findsToolsByStemmedDescriptionWords() {
        assertEquals(SampleTools.WEATHER, retriever.tools("What's the weather forecasted in Paris today?", 1).get(0));
        assertEquals(SampleTools.TRANSLATE, retriever.tools("Please translate this sentence into German", 1).get(0));
    }

    @Test
    void matchesWordsOfCamelCaseAndDottedNamesAndOfParameterNames() {
        assertEquals(SampleTools.EMAIL, retriever.tools("email my landlord", 1).get(0));
        assertEquals(SampleTools.TRIANGLE, retriever.tools("geometry homework", 1).get(0));
        assertEquals(SampleTools.EMAIL, retriever.tools("who is the recipient address", 1).get(0));
    }

    @Test
    void returnsAtMostKBestFirstAndBothSameNamedVariants() {
        List<ScoredTool> hits = retriever.retrieve("stock price of a company", 3);
        assertTrue(hits.size() <= 3);
        assertEquals(List.of(SampleTools.STOCK_V2, SampleTools.STOCK), hits.subList(0, 2).stream().map(ScoredTool::tool).toList());
        for (int i = 1; i < hits.size(); i++) assertTrue(hits.get(i - 1).score() >= hits.get(i).score());
    }

    @Test
    void fieldBoostsDecideWhatCounts() {
        // "exchange" appears only in a parameter description: with that field off, nothing matches
        assertEquals(SampleTools.STOCK, retriever.tools("exchange", 1).get(0));
        try (LexicalRetriever noParameterText = new LexicalRetriever(SampleTools.catalog(), new FieldBoosts(1, 1, 1, 0))) {
            assertEquals(List.of(), noParameterText.tools("exchange", 5));
        }
    }

    @Test
    void queryWithoutIndexedWordsFindsNothing() {
        assertEquals(List.of(), retriever.retrieve("the and of", 5));
        assertEquals(List.of(), retriever.retrieve("", 5));
    }

    @Test
    void rejectsNonPositiveKAndNegativeBoost() {
        assertThrows(IllegalArgumentException.class, () -> retriever.retrieve("weather", 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FieldBoosts(1, -1, 1, 1));
        assertTrue(e.getMessage().contains("description"), e.getMessage());
    }

    @Test
    void aVeryLongQueryStaysWithinLucenesClauseLimit() {
        StringBuilder query = new StringBuilder("weather ");
        for (int i = 0; i < 2000; i++) query.append("word").append(i).append(' ');
        List<ToolSpec> found = retriever.tools(query.toString(), 1);
        assertEquals(List.of(SampleTools.WEATHER), found);
    }
}
