package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;

import java.util.List;

/** A reward that needs the whole group at once (a ranking judge, group-relative scores). */
@FunctionalInterface
public interface GroupReward {
    GroupOutcome score(List<Trace> group, RewardContext example);
}
