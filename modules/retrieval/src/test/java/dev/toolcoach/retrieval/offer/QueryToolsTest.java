package dev.toolcoach.retrieval.offer;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.SampleTools;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.BuiltinSuites;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QueryToolsTest {

    @Test
    void badSettingsAreRefusedNamingTheProblem() {
        assertEquals("unknown tool retrieval 'bm25'; valid: lexical, llm, hybrid",
                assertThrows(IllegalArgumentException.class, () -> RetrievalMode.parse("bm25")).getMessage());
        assertEquals(RetrievalMode.HYBRID, RetrievalMode.parse(" Hybrid "));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolRetrievalSettings.of(RetrievalMode.LEXICAL, 0))
                .getMessage().contains("k must be at least 1"));
        List<ToolSpec> catalogue = List.of(SampleTools.WEATHER, SampleTools.EMAIL);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new QueryTools(catalogue,
                Optional.of(ToolRetrievalSettings.of(RetrievalMode.LLM, 2)), Optional.empty())).getMessage().contains("asks a model"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Distractors.load(List.of("stocks"), List.of(),
                BuiltinSuites.Options.defaults())).getMessage().contains("unknown distractor suite 'stocks'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Distractors.load(List.of(), List.of(Path.of("no/such.json")),
                BuiltinSuites.Options.defaults())).getMessage().contains("no/such.json: not found"));
    }

    @Test
    void aQueryIsOfferedItsBestMatchesAndSameNamedLaterToolsAreLeftOut() {
        List<ToolSpec> catalogue = List.of(SampleTools.WEATHER, SampleTools.STOCK, SampleTools.TRANSLATE, SampleTools.TRIANGLE);
        List<ToolSpec> withClash = List.of(SampleTools.WEATHER, SampleTools.STOCK, SampleTools.TRANSLATE, SampleTools.TRIANGLE,
                SampleTools.STOCK_V2);
        try (QueryTools tools = new QueryTools(withClash, Optional.of(ToolRetrievalSettings.of(RetrievalMode.LEXICAL, 1)), Optional.empty())) {
            assertEquals(1, tools.shadowed());
            assertEquals(catalogue.size(), tools.catalogueSize());
            TaskExample e = TaskExample.question("q1", "What is the latest share price of ACME?", "", List.of(), Map.of());
            assertEquals(List.of(SampleTools.STOCK), tools.offer(e).tools());
            TaskExample nothing = TaskExample.question("q2", "zzzz qqqq", "", List.of(), Map.of());
            assertEquals(List.of(), tools.offer(nothing).tools(), "no match: the agent's own environment is offered");
            assertEquals(1, tools.unmatched());
        }
    }
}
