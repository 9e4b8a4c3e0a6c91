package dev.toolcoach.retrieval.eval;

import dev.toolcoach.retrieval.SampleTools;
import dev.toolcoach.retrieval.lexical.LexicalRetriever;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RecallEvaluatorTest {

    @Test
    void aCaseIsAHitAtKOnlyWhenAllItsToolsAreInTheTopK() {
        List<RetrievalCase> cases = List.of(
                new RetrievalCase("w", "one", "weather forecast for Rome", List.of(SampleTools.WEATHER)),
                // the same-named variant ranks first for this query; the other one only second
                new RetrievalCase("s", "one", "stock price of a company", List.of(SampleTools.STOCK)),
                new RetrievalCase("ws", "two", "weather forecast and stock price of a company",
                        List.of(SampleTools.WEATHER, SampleTools.STOCK)),
                new RetrievalCase("none", "two", "book a flight", List.of(SampleTools.TRANSLATE)));
        try (LexicalRetriever lexical = new LexicalRetriever(SampleTools.catalog())) {
            RecallReport report = new RecallEvaluator(List.of(1, 2, 5)).evaluate(lexical, cases);

            assertEquals(List.of(1, 2, 3), report.hits());
            assertEquals(Map.of("one", List.of(1, 2, 2), "two", List.of(0, 0, 1)), report.hitsByGroup());
            assertEquals(0.75, report.recallAt(5));
            assertEquals(0.5, report.recallAt("two", 5));
            assertEquals(4, report.latencyNanos().size());
            assertThrows(IllegalArgumentException.class, () -> report.recallAt(3));
        }
    }

    @Test
    void latencyPercentilesUseTheNearestRank() {
        List<Long> nanos = List.of(5_000L, 1_000L, 3_000L, 2_000L, 4_000L, 6_000L, 7_000L, 8_000L, 9_000L, 100_000L);
        RecallReport report = new RecallReport(List.of(1), 10, List.of(0), Map.of(), Map.of(), nanos);
        assertEquals(5.0, report.latencyMicros(50));
        assertEquals(100.0, report.latencyMicros(99));
        assertEquals(1.0, report.latencyMicros(0));
    }

    @Test
    void cutOffsMustBePositiveAndAscending() {
        assertThrows(IllegalArgumentException.class, () -> new RecallEvaluator(List.of(5, 1)));
        assertThrows(IllegalArgumentException.class, () -> new RecallEvaluator(List.of(0, 1)));
        assertThrows(IllegalArgumentException.class, () -> new RecallEvaluator(List.of()));
    }
}
