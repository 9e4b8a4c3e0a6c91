package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RewardSpiTest {

    private static final RewardContext NO_GOLD = RewardContext.of("q7", "query", null);

    private static Trace answered(String id, String answer) {
        return TraceBuilder.rollout(id, "q").answer("", answer);
    }

    @Test
    void perTraceAndGroupRewardsAreCalledTheSameWay() {
        // a group reward: 1 for the shortest answer in the group, 0 for the others
        GroupReward shortest = (group, example) -> {
            int best = IntStream.range(0, group.size()).boxed()
                    .min(Comparator.comparingInt(i -> group.get(i).finalAnswer().length())).orElseThrow();
            return GroupOutcome.scored(IntStream.range(0, group.size()).mapToObj(i -> i == best ? 1.0 : 0.0).toList());
        };
        List<Trace> group = List.of(answered("a", "long answer"), answered("b", "short"));
        List<Reward> rewards = List.of(Reward.ofGroup("shortest", shortest),
                Reward.perTrace("length", (t, ex) -> t.finalAnswer().length()));
        assertEquals(List.of(0.0, 1.0), ((GroupOutcome.Scored) rewards.get(0).scoreGroup(group, NO_GOLD)).rewards());
        assertEquals(List.of(11.0, 5.0), ((GroupOutcome.Scored) rewards.get(1).scoreGroup(group, NO_GOLD)).rewards());
    }

    @Test
    void aRewardThatCannotScoreDropsTheGroupSayingWhy() {
        GroupOutcome missingGold = Rewards.exactMatch().scoreGroup(List.of(answered("r1", "x")), NO_GOLD);
        assertEquals(new GroupOutcome.Dropped("reward 'exact_match' failed on rollout r1: example q7 has no gold "
                + "answer, which reward 'exact_match' needs"), missingGold);

        GroupOutcome nan = Reward.perTrace("ratio", (t, ex) -> 0.0 / 0.0).scoreGroup(List.of(answered("r2", "x")), NO_GOLD);
        assertEquals(new GroupOutcome.Dropped("reward 'ratio' gave NaN for rollout r2"), nan);

        GroupOutcome short1 = Reward.ofGroup("broken", (g, ex) -> GroupOutcome.scored(List.of(1.0)))
                .scoreGroup(List.of(answered("a", "x"), answered("b", "y")), NO_GOLD);
        assertEquals(new GroupOutcome.Dropped("reward 'broken' gave 1 scores for a group of 2"), short1);
    }

    @Test
    void weightedSumDropsWhenAPartDrops() {
        Reward sum = WeightedReward.of(Rewards.stepEfficiency(3), 0.5, Rewards.exactMatch(), 0.5);
        GroupOutcome out = sum.scoreGroup(List.of(answered("r1", "x")), NO_GOLD);
        assertTrue(out instanceof GroupOutcome.Dropped d && d.reason().startsWith("part 'exact_match' dropped the group"), out.toString());
    }

    @Test
    void unavailableRewardStopsTheRunInsteadOfDroppingEveryGroup() {
        Reward dead = Reward.ofGroup("judge", (g, ex) -> {
            throw new RewardUnavailableException("judge at http://127.0.0.1:1/v1 is unusable", null);
        });
        assertThrows(RewardUnavailableException.class, () -> dead.scoreGroup(List.of(answered("a", "x")), NO_GOLD));
    }

    @Test
    void exampleFieldsHaveTypedAccessors() {
        RewardContext ex = NO_GOLD.withField("max_turns", 5).withField("forbidden", List.of("rm", "dd"))
                .withField("label", "finance");
        assertEquals(5.0, ex.number("max_turns").orElseThrow());
        assertEquals(List.of("rm", "dd"), ex.strings("forbidden"));
        assertEquals("finance", ex.string("label").orElseThrow());
        assertTrue(ex.number("absent").isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ex.number("label"));
        assertEquals("field 'label' of example q7 is String (finance), not a number", e.getMessage());
        assertEquals(Map.of("max_turns", 5, "forbidden", List.of("rm", "dd"), "label", "finance"), ex.fields());
    }
}
