package dev.toolcoach.coachnode;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The options that pick a registered task, shared by {@code train}, {@code eval} and {@code distill} (a picocli mixin). */
final class TaskOptions {

    @Option(names = "--task", description = "a registered task: finance, arithmetic, email, ...")
    String task;

    @Option(names = "--data-dir", defaultValue = "../shared/data", description = "shared data folder (default: ${DEFAULT-VALUE})")
    Path dataDir;

    @Option(names = "--seed", description = "seeds the task and its split (train: also the model and training); default 1 (eval: the run's)")
    Long seed;

    /** The task's name. @throws IllegalArgumentException when none was given */
    String requiredTask() {
        if (task == null || task.isBlank()) throw new IllegalArgumentException("no task given: use --task NAME");
        return task;
    }

    long seedOr(long fallback) {
        return seed != null ? seed : fallback;
    }
}
