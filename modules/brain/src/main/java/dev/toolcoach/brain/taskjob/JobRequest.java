package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.scratch.ScratchRecipe;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A task training job as a user asks for it: the {@code train} command's options, or the JSON body of
 * {@code POST /jobs} on a coach node. Absent values take the defaults below; {@link #options} checks them.
 *
 * @param task         a registered task (required)
 * @param name         the run's name; an existing run of that name resumes (default {@code <task>-<date>-<time>})
 * @param algorithm    grpo (default), dpo or sft
 * @param mode         async (default) or sync
 * @param steps        learner steps after the warm-up (default: the recipe's)
 * @param warmupTraces oracle traces of the warm-up, 0 for none (default: the recipe's)
 * @param athletes     athlete actors of an embedded run (default: all of a step's rollouts at once)
 * @param seed         seeds the task, the model and training (default 1)
 * @param checkpointEvery steps between checkpoints (default 5)
 * @param recipe       the whole recipe (model shape, warm-up, training settings); default {@link ScratchRecipe#defaults()};
 *                     {@code steps} and {@code warmupTraces} still override its counts
 * @param runsDir      the folder of the runs (default {@code runs})
 * @param dataDir      the shared data folder (default {@code ../shared/data})
 * @param dataset      a JSON Lines file of the task's examples to train on instead of its training split (default: none);
 *                     bad lines are skipped and counted, a file without a usable example is refused
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record JobRequest(String task, String name, String algorithm, String mode, Integer steps,
                         @JsonProperty("warmup_traces") Integer warmupTraces, Integer athletes, Long seed,
                         @JsonProperty("checkpoint_every") Integer checkpointEvery, ScratchRecipe recipe,
                         @JsonProperty("runs_dir") String runsDir, @JsonProperty("data_dir") String dataDir, String dataset) {

    /** The same request under a fixed name (a submitted job keeps the name it got). */
    public JobRequest withName(String runName) {
        return new JobRequest(task, runName, algorithm, mode, steps, warmupTraces, athletes, seed, checkpointEvery, recipe,
                runsDir, dataDir, dataset);
    }

    /** The same request with the runs folder it gets when it names none. */
    public JobRequest withRunsDirOr(Path defaultRunsDir) {
        return runsDir != null ? this : new JobRequest(task, name, algorithm, mode, steps, warmupTraces, athletes, seed,
                checkpointEvery, recipe, defaultRunsDir.toString(), dataDir, dataset);
    }

    /** The run's name: the given one, or one made from the task and the time. */
    public String runName() {
        return name != null && !name.isBlank() ? name
                : task + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    }

    /**
     * The job's options for the run named {@code runName}.
     *
     * @throws IllegalArgumentException naming a missing or invalid value
     */
    public TaskTrainingJob.Options options(String runName) {
        if (task == null || task.isBlank()) throw new IllegalArgumentException("no task given");
        if (runName.contains("/") || runName.contains("..")) throw new IllegalArgumentException("run name '" + runName + "' must be a plain folder name");
        String m = mode == null ? "async" : mode.trim().toLowerCase(Locale.ROOT);
        if (!m.equals("async") && !m.equals("sync")) throw new IllegalArgumentException("unknown mode '" + mode + "'; valid: async, sync");
        ScratchRecipe chosen = recipe != null ? recipe : ScratchRecipe.defaults();
        if (steps != null) {
            if (steps < 1) throw new IllegalArgumentException("steps must be at least 1, was " + steps);
            chosen = chosen.withGrpoSteps(steps);
        }
        if (warmupTraces != null) {
            if (warmupTraces < 0) throw new IllegalArgumentException("warm-up traces must be 0 or more, was " + warmupTraces);
            chosen = chosen.withWarmupTraces(warmupTraces);
        }
        int actors = athletes != null ? athletes : chosen.grpo().groupSize() * chosen.grpo().groupsPerStep();
        if (actors < 1) throw new IllegalArgumentException("athletes must be at least 1, was " + actors);
        int every = checkpointEvery != null ? checkpointEvery : 5;
        if (every < 1) throw new IllegalArgumentException("checkpoint interval must be at least 1 step, was " + every);
        if (dataset != null && dataset.isBlank()) throw new IllegalArgumentException("dataset must name a file");
        return new TaskTrainingJob.Options(task.trim(), Path.of(dataDir != null ? dataDir : "../shared/data"),
                Path.of(runsDir != null ? runsDir : "runs").resolve(runName),
                algorithm == null ? "grpo" : algorithm.trim().toLowerCase(Locale.ROOT), m.equals("sync"), chosen, actors,
                seed != null ? seed : 1L, every, dataset != null ? Path.of(dataset) : null);
    }
}
