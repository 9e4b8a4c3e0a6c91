package dev.toolcoach.brain.run;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/** A job's examples as rewards see them, and whether a rollout solved its example. */
public final class TaskRewards {

    private TaskRewards() {
    }

    /**
     * The example of a query id as a {@link RewardContext}: query, gold answer, the oracle's calls and the gold facts.
     * Built once per example, when the job starts; an id outside the dataset is an {@link IllegalArgumentException}
     * (the learner drops such a group, counted).
     */
    public static Function<String, RewardContext> contexts(List<TaskExample> examples) {
        Map<String, RewardContext> byId = byId(examples);
        return id -> {
            RewardContext context = byId.get(id);
            if (context == null) throw new IllegalArgumentException("query " + id + " is not in the job's dataset");
            return context;
        };
    }

    /** Whether a rollout solved its example by the task's own reward (full marks), for a step's accuracy. */
    public static Predicate<Trace> succeeded(TraceReward reward, List<TaskExample> examples) {
        Map<String, RewardContext> byId = byId(examples);
        return trace -> {
            RewardContext context = byId.get(trace.queryId());
            return context != null && reward.score(trace, context) >= 1.0;
        };
    }

    private static Map<String, RewardContext> byId(List<TaskExample> examples) {
        Map<String, RewardContext> byId = new LinkedHashMap<>();
        for (TaskExample e : examples) {
            byId.put(e.id(), RewardContext.of(e));
        }
        return byId;
    }
}
