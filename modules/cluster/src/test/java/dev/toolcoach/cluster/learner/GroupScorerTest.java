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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GroupScorerTest {
    private static final RewardContext EXAMPLE = RewardContext.of("q-g", "what is 6 * 7?", "42");
    private final CompleteGroup group = new CompleteGroup("g", List.of(
            TestTraces.generated("r0", "g", "41", 0),
            TestTraces.generated("r1", "g", "42", 0),
            TestTraces.generated("r2", "g", "forty-two!", 0)), 0);

    @Test
    void aPerTraceRewardScoresEachRolloutInGroupOrder() {
        ScoredGroup scored = scored(new GroupScorer(Rewards.exactMatch(), id -> EXAMPLE).score(group));

        assertEquals("g", scored.groupId());
        assertArrayEquals(new double[] {0, 1, 0}, scored.rewards());
        assertSame(group.traces().get(1), scored.traces().get(1).trace());
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

        ScoredGroup scored = scored(new GroupScorer(byLength, id -> EXAMPLE).score(group));

        assertEquals(List.of(3), seenSizes);
        assertArrayEquals(new double[] {0, 1, 2}, scored.rewards());
    }

    @Test
    void aThrowingRewardDropsTheGroupAndCountsTheReason() {
        Reward broken = Reward.perTrace("broken", (trace, example) -> {
            if (trace.rolloutId().equals("r1")) throw new IllegalStateException("parser crashed");
            return 1.0;
        });

        assertEquals(new GroupScorer.Unscored("g", "group g: reward 'broken' failed on rollout r1: parser crashed"),
                new GroupScorer(broken, id -> EXAMPLE).score(group));
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

        assertEquals(new GroupScorer.Unscored("g", "group g: reward 'short' gave [1.0] for 3 rollouts"),
                new GroupScorer(shortOne, id -> EXAMPLE).score(group));
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

        assertEquals(new GroupScorer.Unscored("g", "group g: reward 'raw' failed: java.lang.IllegalStateException: no scores today"),
                new GroupScorer(raw, id -> EXAMPLE).score(group));
    }

    @Test
    void aGroupWhoseQueryIsOutsideTheDatasetIsUnscored() {
        GroupScorer scorer = new GroupScorer(Rewards.exactMatch(), id -> {
            throw new IllegalArgumentException("query " + id + " is not in the job's dataset");
        });
        assertEquals(new GroupScorer.Unscored("g", "group g: query q-g is not in the job's dataset"), scorer.score(group));
    }

    @Test
    void anUnavailableRewardStopsTheJob() {
        Reward judge = Reward.ofGroup("judge", (traces, example) -> {
            throw new RewardUnavailableException("judge endpoint refused the key", null);
        });

        RewardUnavailableException e = assertThrows(RewardUnavailableException.class,
                () -> new GroupScorer(judge, id -> EXAMPLE).score(group), "not a per-group failure: the job stops");
        assertEquals("judge endpoint refused the key", e.getMessage());
    }

    private static ScoredGroup scored(GroupScorer.Score score) {
        return assertInstanceOf(GroupScorer.Scored.class, score).group();
    }
}
