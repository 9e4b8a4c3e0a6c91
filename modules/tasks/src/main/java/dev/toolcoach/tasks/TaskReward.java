package dev.toolcoach.tasks;

import dev.toolcoach.trace.Trace;

/** Scores one finished rollout of an example, in [0, 1]. */
@FunctionalInterface
public interface TaskReward {
    double score(TaskExample example, Trace trace);
}
