package dev.toolcoach.tasks;

import java.util.List;
import java.util.Objects;

/** A task whose examples are built up front: generated questions or a loaded dataset. */
public record SimpleTask(String name, List<String> toolSuites, List<TaskExample> examples, TraceReward reward) implements Task {

    public SimpleTask {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(reward, "reward");
        toolSuites = List.copyOf(toolSuites);
        examples = List.copyOf(examples);
        long distinct = examples.stream().map(TaskExample::id).distinct().count();
        if (distinct != examples.size()) throw new IllegalArgumentException("task " + name + " has duplicate example ids");
    }
}
