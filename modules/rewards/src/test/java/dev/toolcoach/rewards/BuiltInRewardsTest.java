package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BuiltInRewardsTest {

    private static final RewardContext EIFFEL = RewardContext.of("q1", "Which tower?", "The Eiffel tower");
    private static final Map<String, Object> ARGS = Map.of("query", "tower");

    private static Trace answered(String answer) {
        return TraceBuilder.rollout("r", "q").answer("", answer);
    }

    private static Trace turns(int n) {
        TraceBuilder b = TraceBuilder.rollout("r", "q");
        for (int i = 1; i < n; i++) b.call("", "search", ARGS, "hit");
        return b.answer("", "done");
    }

    @Test
    void exactMatchNormalisesTextAndComparesNumbersWithTolerance() {
        ExactMatchReward exact = new ExactMatchReward(1e-4);
        assertEquals(1.0, exact.score(answered("eiffel Tower!"), EIFFEL));
        assertEquals(0.0, exact.score(answered("Big Ben"), EIFFEL));
        assertEquals(0.0, exact.score(TraceBuilder.rollout("r", "q").stopped(Termination.MAX_TURNS), EIFFEL));
        assertTrue(exact.matches("42.00", "42"));
        assertTrue(exact.matches("$1,234.50", "1234.5"));
        assertTrue(exact.matches("12%", "12"));
        assertTrue(exact.matches("100.009", "100"), "0.009 is within 1e-4 of 100.009");
        assertTrue(!exact.matches("100.02", "100"), "0.02 is beyond 1e-4 of 100.02");
        assertTrue(!exact.matches("0.0001", "0"), "zero only matches zero");
    }

    @Test
    void tokenF1CountsSharedWords() {
        TokenF1Reward f1 = new TokenF1Reward();
        // pred {cat, sat, on, mat} vs gold {cat, sat, on, red, mat}: P = 1, R = 4/5, F1 = 8/9
        assertEquals(8.0 / 9, f1.score(answered("The cat sat on mat."), RewardContext.of("q", "", "a cat sat on the red mat")), 1e-12);
        // repeated words count once per gold occurrence: P = 1/3, R = 1, F1 = 0.5
        assertEquals(0.5, f1.score(answered("go go go"), RewardContext.of("q", "", "go")), 1e-12);
        assertEquals(0.0, f1.score(answered("nothing shared"), EIFFEL));
    }

    @Test
    void stepEfficiencyTakesATenthPerExtraTurn() {
        StepEfficiencyReward steps = new StepEfficiencyReward(3);
        assertEquals(1.0, steps.score(turns(2), EIFFEL));
        assertEquals(1.0, steps.score(turns(3), EIFFEL));
        assertEquals(0.8, steps.score(turns(5), EIFFEL), 1e-12);
        assertEquals(0.0, steps.score(turns(20), EIFFEL));
    }

    @Test
    void toolSuccessIsTheShareOfCallsWithoutError() {
        Trace mixed = TraceBuilder.rollout("r", "q").call("", "search", ARGS, "a")
                .failedCall("", "search", ARGS, "index offline").call("", "read", ARGS, "b").answer("", "x");
        assertEquals(2.0 / 3, new ToolSuccessReward().score(mixed, EIFFEL), 1e-12);
        assertEquals(0.0, new ToolSuccessReward().score(answered("x"), EIFFEL));
    }

    @Test
    void behaviourRules() {
        UsesToolBeforeAnswerReward searchFirst = new UsesToolBeforeAnswerReward(Set.of("search"));
        assertEquals(1.0, searchFirst.score(TraceBuilder.rollout("r", "q").call("", "search", ARGS, "hit").answer("", "x"), EIFFEL));
        assertEquals(0.0, searchFirst.score(answered("x"), EIFFEL));
        assertEquals(0.0, searchFirst.score(TraceBuilder.rollout("r", "q").call("", "calculator", ARGS, "4").answer("", "x"), EIFFEL));
        assertEquals(0.0, searchFirst.score(TraceBuilder.rollout("r", "q").call("", "search", ARGS, "hit")
                .stopped(Termination.MAX_TURNS), EIFFEL), "searching without answering is not the behaviour");

        ForbiddenToolReward safe = new ForbiddenToolReward(Set.of("os_system"));
        assertEquals(0.0, safe.score(TraceBuilder.rollout("r", "q").call("", "os_system", Map.of("cmd", "rm"), "")
                .answer("", "x"), EIFFEL));
        assertEquals(1.0, safe.score(TraceBuilder.rollout("r", "q").call("", "search", ARGS, "").answer("", "x"), EIFFEL));
    }

    @Test
    void artERewardsCorrectShortRunsAndPunishesWrongAnswers() {
        ArtEReward arte = new ArtEReward(10, new ExactMatchReward(1e-4));
        RewardContext gold = RewardContext.of("q", "", "done");
        assertEquals(1.06, arte.score(turns(4), gold), 1e-12);   // 1 + 0.1 * (1 - 4/10)
        assertEquals(1.0, arte.score(turns(10), gold), 1e-12);
        assertEquals(-0.5, arte.score(answered("not it"), gold));
        assertEquals(0.0, arte.score(TraceBuilder.rollout("r", "q").stopped(Termination.MAX_TURNS), gold));
    }

    @Test
    void weightedCombinationAddsParts() {
        Reward combined = WeightedReward.of(Rewards.exactMatch(), 0.7, Rewards.stepEfficiency(2), 0.3);
        RewardContext gold = RewardContext.of("q", "", "done");
        GroupOutcome outcome = combined.scoreGroup(List.of(turns(2), turns(4), answered("wrong")), gold);
        // exact: 1, 1, 0; steps (max 2): 1, 0.8, 1
        List<Double> r = ((GroupOutcome.Scored) outcome).rewards();
        assertEquals(1.0, r.get(0), 1e-12);
        assertEquals(0.7 + 0.24, r.get(1), 1e-12);
        assertEquals(0.3, r.get(2), 1e-12);
        assertEquals("0.7*exact_match + 0.3*step_efficiency", combined.name());
    }
}
