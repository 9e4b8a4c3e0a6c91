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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scores a complete group with the job's reward, the whole group in one call so ranking judges see
 * every rollout. A group the reward cannot score is dropped and counted with the reward's reason.
 */
public final class GroupScorer {
    private static final Logger LOG = LoggerFactory.getLogger(GroupScorer.class);

    private final Reward reward;
    private final AtomicReference<LearnerAccounts> accounts;

    public GroupScorer(Reward reward, AtomicReference<LearnerAccounts> accounts) {
        this.reward = Objects.requireNonNull(reward, "reward");
        this.accounts = accounts;
    }

    /**
     * @param example the dataset example the group was made from
     * @return the scored group, or empty when the reward dropped it
     * @throws RewardUnavailableException when the reward cannot work at all: the job must stop
     */
    public Optional<ScoredGroup> score(CompleteGroup group, RewardContext example) {
        GroupOutcome outcome;
        try {
            outcome = reward.scoreGroup(group.traces(), example);
        } catch (RewardUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            // Reward.perTrace/ofGroup turn a throw into Dropped themselves; a Reward implemented directly might not
            return drop(group, "reward '" + reward.name() + "' failed: " + e);
        }
        if (outcome instanceof GroupOutcome.Dropped dropped) {
            return drop(group, dropped.reason());
        }
        GroupOutcome.Scored scored = (GroupOutcome.Scored) outcome;
        if (scored.rewards().size() != group.traces().size() || !scored.rewards().stream().allMatch(Double::isFinite)) {
            return drop(group, "reward '" + reward.name() + "' gave " + scored.rewards() + " for "
                    + group.traces().size() + " rollouts");
        }
        List<ScoredTrace> traces = new ArrayList<>(group.traces().size());
        for (int i = 0; i < group.traces().size(); i++) {
            traces.add(new ScoredTrace(group.traces().get(i), scored.get(i)));
        }
        return Optional.of(new ScoredGroup(group.groupId(), traces));
    }

    private Optional<ScoredGroup> drop(CompleteGroup group, String reason) {
        String why = "group " + group.groupId() + ": " + reason;
        LOG.warn("group dropped: {}", why);
        accounts.updateAndGet(a -> a.plusRewardFailure(why));
        return Optional.empty();
    }
}
