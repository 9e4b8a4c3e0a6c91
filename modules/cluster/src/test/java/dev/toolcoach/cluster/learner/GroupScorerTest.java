package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.rewards.GroupOutcome;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.RewardUnavailableException;
import dev.toolcoach.rewards.Rewards;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupScorerTest {
    private static final RewardContext EXAMPLE = RewardContext.of("q-g", "what is 6 * 7?", "42");
    private final AtomicReference<LearnerAccounts> counted = new AtomicReference<>(LearnerAccounts.NONE);
    private final CompleteGroup group = new CompleteGroup("g", List.of(
            TestTraces.generated("r0", "g", "41", 0),
            TestTraces.generated("r1", "g", "42", 0),
            TestTraces.generated("r2", "g", "forty-two!", 0)), 0);

    @Test
    void aPerTraceRewardScoresEachRolloutInGroupOrder() {
        ScoredGroup scored = new GroupScorer(Rewards.exactMatch(), counted).score(group, EXAMPLE).orElseThrow();

        assertEquals("g", scored.groupId());
        assertArrayEquals(new double[] {0, 1, 0}, scored.rewards());
        assertSame(group.traces().get(1), scored.traces().get(1).trace());
        assertEquals(0, counted.get().droppedRewardFailure());
    }

    @Test
    void aGroupRewardSeesTheWholeGroupAtOnce() {
        List<Integer> seenSizes = new ArrayList<>();
        // ranks by answer length: the longest answer earns 2, the shortest 0
        Reward byLength = Reward.ofGroup("rank_by_length", (traces, example) -> {
            seenSizes.add(traces.size());
            List<Trace> order = traces.stream().sorted(Comparator.comparingInt(t -> t.finalAnswer().length())).toList();
            return GroupOutcome.scored(traces.stream().map(t -> (double) order.indexOf(t)).toList());
        });

        ScoredGroup scored = new GroupScorer(byLength, counted).score(group, EXAMPLE).orElseThrow();

        assertEquals(List.of(3), seenSizes);
        assertArrayEquals(new double[] {0, 1, 2}, scored.rewards());
    }

    @Test
    void aThrowingRewardDropsTheGroupAndCountsTheReason() {
        Reward broken = Reward.perTrace("broken", (trace, example) -> {
            if (trace.rolloutId().equals("r1")) throw new IllegalStateException("parser crashed");
            return 1.0;
        });

        Optional<ScoredGroup> scored = new GroupScorer(broken, counted).score(group, EXAMPLE);

        assertTrue(scored.isEmpty());
        LearnerAccounts accounts = counted.get();
        assertEquals(1, accounts.droppedRewardFailure());
        assertEquals("group g: reward 'broken' failed on rollout r1: parser crashed", accounts.lastDropReason());
    }

    @Test
    void aRewardGivingTheWrongNumberOfScoresIsDroppedNotTrusted() {
        Reward shortOne = new Reward() {
            @Override
            public String name() {
                return "short";
            }

            @Override
            public GroupOutcome scoreGroup(List<Trace> traces, RewardContext example) {
                return GroupOutcome.scored(List.of(1.0));
            }
        };

        assertTrue(new GroupScorer(shortOne, counted).score(group, EXAMPLE).isEmpty());
        assertEquals("group g: reward 'short' gave [1.0] for 3 rollouts", counted.get().lastDropReason());
    }

    @Test
    void aHandWrittenRewardThatThrowsIsDroppedToo() {
        Reward raw = new Reward() {
            @Override
            public String name() {
                return "raw";
            }

            @Override
            public GroupOutcome scoreGroup(List<Trace> traces, RewardContext example) {
                throw new IllegalStateException("no scores today");
            }
        };

        assertTrue(new GroupScorer(raw, counted).score(group, EXAMPLE).isEmpty());
        assertEquals("group g: reward 'raw' failed: java.lang.IllegalStateException: no scores today",
                counted.get().lastDropReason());
    }

    @Test
    void anUnavailableRewardStopsTheJob() {
        Reward judge = Reward.ofGroup("judge", (traces, example) -> {
            throw new RewardUnavailableException("judge endpoint refused the key", null);
        });

        RewardUnavailableException e = assertThrows(RewardUnavailableException.class,
                () -> new GroupScorer(judge, counted).score(group, EXAMPLE));
        assertEquals("judge endpoint refused the key", e.getMessage());
        assertEquals(0, counted.get().droppedRewardFailure(), "not a per-group failure");
    }
}
