package dev.toolcoach.brain.run;

import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/** A task's examples as rewards see them, and a task's own reward as a {@link Reward}. */
public final class TaskRewards {

    private TaskRewards() {
    }

    /**
     * The example of a query id as a {@link RewardContext}: query, gold answer, the oracle's calls, the gold facts
     * and the example itself. Built once per example, when the job starts.
     */
    public static Function<String, RewardContext> contexts(List<TaskExample> examples) {
        Map<String, RewardContext> byId = new LinkedHashMap<>();
        for (TaskExample e : examples) {
            byId.put(e.id(), RewardContext.of(e));
        }
        // an id outside the dataset gets a bare context: the reward then fails and the group is dropped, counted
        return id -> byId.getOrDefault(id, RewardContext.of(id, "", null));
    }

    /** The task's reward over the example the rollout was made from (the one its {@link #contexts context} carries). */
    public static Reward of(String name, TraceReward reward) {
        Objects.requireNonNull(reward, "reward");
        return Reward.perTrace(name, (trace, context) -> {
            if (context.example().isEmpty()) {
                throw new IllegalArgumentException("query " + context.queryId() + " is not in the task's dataset");
            }
            return reward.score(trace, context);
        });
    }

    /** Whether a rollout solved its example by the task's own reward (full marks), for a step's accuracy. */
    public static Predicate<Trace> succeeded(TraceReward reward, List<TaskExample> examples) {
        Function<String, RewardContext> contexts = contexts(examples);
        return trace -> {
            RewardContext context = contexts.apply(trace.queryId());
            return context.example().isPresent() && reward.score(trace, context) >= 1.0;
        };
    }
}
