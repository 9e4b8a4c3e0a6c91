package dev.toolcoach.tasks.synthetic;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.finance.FinanceTools;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated tasks are solved by their own oracle over the real tool suites, with full reward. */
class SyntheticTasksTest {

    private static void assertOracleSolvesEvery(Task task, ToolSuite suite) throws Exception {
        try (ToolExecutor tools = new ToolExecutor(suite, ExecutorSettings.defaults())) {
            for (TaskExample ex : task.examples()) {
                Trace trace = OracleRollout.run(ex, tools, AgentConfig.defaults()).toCompletableFuture().get(30, TimeUnit.SECONDS);
                assertEquals(Termination.ANSWER, trace.termination(), () -> ex.id() + ": " + trace.error() + " " + trace.turns());
                assertEquals(ex.solution().size(), trace.turns().size(), ex.id());
                for (ToolResult r : trace.toolResults()) assertTrue(r.ok(), () -> ex.id() + ": " + r);
                assertEquals(1.0, task.reward().score(ex, trace), () -> ex.id() + " answered " + trace.finalAnswer()
                        + ", gold " + ex.goldAnswer() + "; " + ex.query());
            }
        }
    }

    @Test
    void arithmeticOracleSolvesEveryQuestionWithTheRealTools() throws Exception {
        Task task = ArithmeticTask.create(60, 7);
        assertTrue(task.examples().stream().anyMatch(e -> e.solution().size() == 3), "some questions need two calls");
        assertOracleSolvesEvery(task, ArithmeticTools.suite());
    }

    @Test
    void financeOracleSolvesEveryQuestionWithTheRealTools() throws Exception {
        Task task = FinanceTask.create(60, 11);
        Set<String> tools = new HashSet<>();
        task.examples().forEach(e -> e.solution().forEach(s -> s.calls().forEach(c -> tools.add(c.name()))));
        assertEquals(Set.of("compound_interest", "loan_payment", "cagr", "npv"), tools);
        assertTrue(task.examples().stream().anyMatch(e -> e.solution().size() == 3), "some questions need two calls");
        assertOracleSolvesEvery(task, FinanceTools.suite());
    }

    /** The oracle converts a question's percent in its thought, right before the call that writes the decimal. */
    @Test
    void financeOracleStatesEachRateAsADecimalBeforeCallingWithIt() {
        int rated = 0;
        for (TaskExample ex : FinanceTask.create(200, 5).examples()) {
            OracleStep first = ex.solution().get(0);
            Object rate = first.calls().get(0).arguments().getOrDefault("annual_rate", first.calls().get(0).arguments().get("rate"));
            if (rate == null) continue;
            rated++;
            String percent = BigDecimal.valueOf((Double) rate).movePointRight(2).stripTrailingZeros().toPlainString();
            assertTrue(ex.query().contains(percent + "%"), () -> ex.id() + ": " + rate + " is not the question's rate: " + ex.query());
            assertTrue(first.thought().endsWith(percent + "% is " + rate + "."), () -> ex.id() + " thinks: " + first.thought());
        }
        assertTrue(rated > 100, "questions with a rate: " + rated);
    }

    @Test
    void phrasingsVaryAndGenerationIsReproducible() {
        Task a = FinanceTask.create(200, 3);
        assertEquals(a.examples(), FinanceTask.create(200, 3).examples());
        Set<String> openings = new HashSet<>();
        a.examples().forEach(e -> openings.add(e.query().substring(0, 12)));
        assertTrue(openings.size() >= 12, "distinct openings: " + openings);
        assertEquals(ArithmeticTask.create(50, 1).examples(), ArithmeticTask.create(50, 1).examples());
    }

    @Test
    void splitsAreFixedBySeedAndDisjoint() {
        Task task = ArithmeticTask.create(100, 5);
        Split s = task.split(0.2, 42);
        assertEquals(80, s.train().size());
        assertEquals(20, s.test().size());
        assertEquals(s, task.split(0.2, 42));
        Set<String> ids = new HashSet<>();
        s.train().forEach(e -> ids.add(e.id()));
        s.test().forEach(e -> assertTrue(ids.add(e.id()), e.id()));
        assertTrue(!s.test().equals(task.split(0.2, 43).test()), "another seed gives another split");
        assertEquals(s, Split.holdOut(task.examples(), 20, 42), "a fraction is a test size");
        assertEquals(7, Split.holdOut(task.examples(), 7, 42).test().size());
        assertThrows(IllegalArgumentException.class, () -> Split.holdOut(task.examples(), 101, 42));
    }

    @Test
    void answerRewardMatchesNumbersAndText() {
        AnswerReward money = AnswerReward.numeric(0.01);
        assertTrue(money.matches("The future value is $1,628.89.", "1628.89"));
        assertTrue(money.matches("1628.9", "1628.89"));
        assertTrue(!money.matches("1628.87", "1628.89"));
        assertTrue(!money.matches("no idea", "1628.89"));
        assertTrue(AnswerReward.exact().matches("  Phillip Allen. ", "phillip allen"));
        assertTrue(AnswerReward.mentions().matches("It was sent by phillip.allen@enron.com.", "phillip.allen@enron.com"));
        assertTrue(!AnswerReward.mentions().matches("It was sent by allen@enron.com", "phillip.allen@enron.com"));
    }
}
