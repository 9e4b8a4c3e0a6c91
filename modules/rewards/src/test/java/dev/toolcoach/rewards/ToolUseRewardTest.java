package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolUseRewardTest {

    private static final RewardContext PARIS = RewardContext.of("q1", "capital of France?", "Paris");

    /** search fails, search again with other arguments (a retry) succeeds, read succeeds: 3 calls, 1 retry. */
    private static Trace retried(String answer) {
        return TraceBuilder.rollout("r", "q").failedCall("", "search", Map.of("q", "franse"), "no hits")
                .call("", "search", Map.of("q", "france"), "doc 1").call("", "read", Map.of("id", 1), "Paris").answer("", answer);
    }

    @Test
    void compositeIsTheWeightedSumOfItsTerms() {
        ToolUseReward composite = new ToolUseReward(new ToolUseReward.Weights(0.5, 0.3, 2.0, 0.25), new ExactMatchReward(1e-6));
        // 0.5·(2/3) + 0.3·(1/3) + 2·1 − 0.25·1
        assertEquals(0.5 * 2 / 3 + 0.3 / 3 + 2.0 - 0.25, composite.score(retried("Paris"), PARIS), 1e-12);
        assertEquals(0.5 * 2 / 3 + 0.3 / 3 - 0.25, composite.score(retried("Lyon"), PARIS), 1e-12);
        Trace direct = TraceBuilder.rollout("r", "q").call("", "read", Map.of("id", 1), "Paris").answer("", "Paris");
        assertEquals(0.5 + 0.3 + 2.0, composite.score(direct, PARIS), 1e-12);
        Trace none = TraceBuilder.rollout("r", "q").answer("", "Paris");
        assertEquals(2.0, composite.score(none, PARIS), 1e-12);
    }

    @Test
    void builtInsScoreWholeGroups() {
        List<Trace> group = List.of(retried("Paris"), TraceBuilder.rollout("r2", "q").answer("", "Paris"));
        assertEquals(List.of(1.0 / 3, 0.0), ((GroupOutcome.Scored) Rewards.toolEfficiency().scoreGroup(group, PARIS)).rewards());
        assertEquals(List.of(-1.0, 0.0), ((GroupOutcome.Scored) Rewards.retryPenalty().scoreGroup(group, PARIS)).rewards());
        Reward composite = Rewards.toolComposite(ToolUseReward.Weights.parse("1, 0, 1, 0.5"), new ExactMatchReward(1e-6));
        assertEquals("tool_composite", composite.name());
        assertEquals(List.of(2.0 / 3 + 1 - 0.5, 1.0), ((GroupOutcome.Scored) composite.scoreGroup(group, PARIS)).rewards());
    }

    @Test
    void badWeightsAreClearErrors() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolUseReward.Weights.parse("1,2,3"))
                .getMessage().contains("four numbers"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ToolUseReward.Weights.parse("1,x,3,4"))
                .getMessage().contains("weight 2 is not a number"));
        assertThrows(IllegalArgumentException.class, () -> ToolUseReward.Weights.parse("1,-1,3,4"));
        assertThrows(IllegalArgumentException.class, () -> new ToolUseReward(new ToolUseReward.Weights(1, 1, 1, 1), null));
        assertEquals(0.0, new ToolUseReward(new ToolUseReward.Weights(1, 0, 0, 0), null)
                .score(TraceBuilder.rollout("r", "q").answer("", "x"), PARIS));
    }
}
