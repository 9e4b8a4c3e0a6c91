package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.rewards.GroupOutcome;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.RewardUnavailableException;
import dev.toolcoach.tasks.RewardContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Scores a complete group with the job's reward, the whole group in one call so ranking judges see every rollout. It
 * returns what came of it; the learner's step state counts it. Runs on the learner's training thread.
 */
public final class GroupScorer {
    private static final Logger LOG = LoggerFactory.getLogger(GroupScorer.class);

    /** What scoring made of a complete group. */
    public sealed interface Score {
        String groupId();
    }

    /** The reward scored every rollout. */
    public record Scored(ScoredGroup group) implements Score {
        public Scored {
            Objects.requireNonNull(group, "group");
        }

        @Override
        public String groupId() {
            return group.groupId();
        }
    }

    /** The reward could not score the group (it threw, dropped it, or gave a wrong count or a non-finite score). */
    public record Unscored(String groupId, String reason) implements Score {
    }

    private final Reward reward;
    private final Function<String, RewardContext> examples;

    /**
     * @param examples the dataset example of a query id, as the reward sees it; an {@link IllegalArgumentException}
     *                 for an id outside the dataset
     */
    public GroupScorer(Reward reward, Function<String, RewardContext> examples) {
        this.reward = Objects.requireNonNull(reward, "reward");
        this.examples = Objects.requireNonNull(examples, "examples");
    }

    /**
     * Scores the group against the example it was made from.
     *
     * @throws RewardUnavailableException when the reward cannot work at all: the job must stop
     */
    public Score score(CompleteGroup group) {
        RewardContext example;
        try {
            example = examples.apply(group.traces().get(0).queryId());
        } catch (IllegalArgumentException e) {
            return unscored(group, e.getMessage());
        }
        GroupOutcome outcome;
        try {
            outcome = reward.scoreGroup(group.traces(), example);
        } catch (RewardUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            // Reward.perTrace/ofGroup turn a throw into Dropped themselves; a Reward implemented directly might not
            return unscored(group, "reward '" + reward.name() + "' failed: " + e);
        }
        if (outcome instanceof GroupOutcome.Dropped dropped) {
            return unscored(group, dropped.reason());
        }
        GroupOutcome.Scored scored = (GroupOutcome.Scored) outcome;
        if (scored.rewards().size() != group.traces().size() || !scored.rewards().stream().allMatch(Double::isFinite)) {
            return unscored(group, "reward '" + reward.name() + "' gave " + scored.rewards() + " for "
                    + group.traces().size() + " rollouts");
        }
        List<ScoredTrace> traces = new ArrayList<>(group.traces().size());
        for (int i = 0; i < group.traces().size(); i++) {
            traces.add(new ScoredTrace(group.traces().get(i), scored.get(i)));
        }
        return new Scored(new ScoredGroup(group.groupId(), traces));
    }

    private static Unscored unscored(CompleteGroup group, String reason) {
        String why = "group " + group.groupId() + ": " + reason;
        LOG.warn("group dropped: {}", why);
        return new Unscored(group.groupId(), why);
    }
}
