package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one way a caller (the learner, the Brain) invokes any reward: always on a whole group.
 * Per-rollout rewards are lifted with {@link #perTrace}, group rewards wrapped with {@link #ofGroup};
 * both check that every rollout got exactly one finite score, and turn a failing reward into a
 * dropped group that names the reward and the rollout (except {@link RewardUnavailableException},
 * which is passed on: it means no group can be scored).
 */
public interface Reward {

    String name();

    GroupOutcome scoreGroup(List<Trace> group, RewardContext example);

    static Reward perTrace(String name, TraceReward reward) {
        Objects.requireNonNull(reward, "reward");
        return new Reward() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public GroupOutcome scoreGroup(List<Trace> group, RewardContext example) {
                List<Double> scores = new ArrayList<>(group.size());
                for (Trace t : group) {
                    double s;
                    try {
                        s = reward.score(t, example);
                    } catch (RewardUnavailableException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        return GroupOutcome.dropped("reward '" + name + "' failed on rollout " + t.rolloutId()
                                + ": " + e.getMessage());
                    }
                    if (!Double.isFinite(s)) {
                        return GroupOutcome.dropped("reward '" + name + "' gave " + s + " for rollout " + t.rolloutId());
                    }
                    scores.add(s);
                }
                return GroupOutcome.scored(scores);
            }
        };
    }

    static Reward ofGroup(String name, GroupReward reward) {
        Objects.requireNonNull(reward, "reward");
        return new Reward() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public GroupOutcome scoreGroup(List<Trace> group, RewardContext example) {
                GroupOutcome outcome;
                try {
                    outcome = reward.score(group, example);
                } catch (RewardUnavailableException e) {
                    throw e;
                } catch (RuntimeException e) {
                    return GroupOutcome.dropped("reward '" + name + "' failed on group of " + example.queryId()
                            + ": " + e.getMessage());
                }
                if (outcome instanceof GroupOutcome.Scored s) {
                    if (s.rewards().size() != group.size()) {
                        return GroupOutcome.dropped("reward '" + name + "' gave " + s.rewards().size()
                                + " scores for a group of " + group.size());
                    }
                    if (!s.rewards().stream().allMatch(Double::isFinite)) {
                        return GroupOutcome.dropped("reward '" + name + "' gave a non-finite score: " + s.rewards());
                    }
                }
                return outcome;
            }
        };
    }
}
