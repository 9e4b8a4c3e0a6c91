package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.Brain;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a job's phases share, made once by {@link TaskTrainingJob} before the first phase: the spec, the task and its
 * split, the Brain they all act through, the reward evaluations count, the queries training samples (and the first of
 * them, on which pass@k is measured), the examples whose rewards say "solved", the evaluations so far (also those of
 * an earlier session of a resumed job), this session's phase times, and who hears the job's progress.
 */
record JobRun(TrainingJobSpec spec, Task task, Split split, Brain brain, TraceReward taskReward,
              List<TaskExample> trainingQueries, List<TaskExample> passQueries, List<TaskExample> knownExamples,
              Map<String, EvalRecord> evals, PhaseTimes times, JobListener listener, long startNanos) {

    Path folder() {
        return spec.runDir();
    }

    ScratchRecipe recipe() {
        return spec.recipe();
    }

    double wallSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
