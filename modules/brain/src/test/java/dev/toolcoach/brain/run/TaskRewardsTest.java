package dev.toolcoach.brain.run;

import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TaskRewardsTest {

    private static final TaskExample SIX_BY_SEVEN = TaskExample.question("q1", "What is 6 * 7?", "42",
            List.of(OracleStep.call("multiply", new ToolCall("multiply", Map.of("a", 6, "b", 7))), OracleStep.answer("done", "42")),
            Map.of("unit", "none"));

    private static Trace answered(String queryId, String answer) {
        return new Trace(queryId + "/0", queryId, queryId, "", null, null, answer, Termination.ANSWER, null, 0, 0, Map.of());
    }

    @Test
    void eachExamplesContextIsBuiltOnceWithItsQueryGoldAnswerOracleCallsAndGoldFacts() {
        Function<String, RewardContext> contexts = TaskRewards.contexts(List.of(SIX_BY_SEVEN));
        RewardContext context = contexts.apply("q1");
        assertSame(context, contexts.apply("q1"), "built once, when the job starts");
        assertEquals("What is 6 * 7?", context.query());
        assertEquals("42", context.goldAnswer());
        assertEquals(List.of(new ToolCall("multiply", Map.of("a", 6, "b", 7))), context.goldCalls(), "the oracle's calls");
        assertEquals("none", context.string("unit").orElseThrow(), "the gold facts");
    }

    @Test
    void aRolloutSucceedsWithFullMarksOnAnExampleOfTheDataset() {
        Predicate<Trace> succeeded = TaskRewards.succeeded(
                (trace, example) -> example.goldAnswer().equals(trace.finalAnswer()) ? 1 : 0, List.of(SIX_BY_SEVEN));
        assertTrue(succeeded.test(answered("q1", "42")));
        assertFalse(succeeded.test(answered("q1", "41")));
        assertFalse(TaskRewards.succeeded((trace, example) -> 1, List.of(SIX_BY_SEVEN)).test(answered("q9", "42")),
                "a query outside the dataset never succeeds");
    }

    @Test
    void aQueryOutsideTheDatasetIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TaskRewards.contexts(List.of(SIX_BY_SEVEN)).apply("q9"));
        assertEquals("query q9 is not in the job's dataset", e.getMessage());
    }
}
