package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.eval.PeriodicEvaluation;
import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.TaskRewards;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.tasks.TaskExample;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Training with the job's algorithm through the Brain (coach, athletes, tool servers and learner), every step recorded
 * in {@code metrics.jsonl} and {@code traces.jsonl} and checkpointed, with a small held-out evaluation every
 * {@code heldOutEvery} steps (the recipe's) in {@code heldout.jsonl}; a resumed job continues from its last checkpoint.
 * Then the adapter is saved to {@code adapter/}.
 */
final class TrainPhase {

    private TrainPhase() {
    }

    static TrainingRun.Result run(JobRun job) throws IOException {
        job.listener().phase("train");
        TrainingJobSpec spec = job.spec();
        // a named reward is trained on as it is, so the reward a rollout was given says whether it solved its example
        RunRecorder recorder = new RunRecorder(job.folder(), job.task().name(), spec.reward().isTask()
                ? TaskRewards.succeeded(job.taskReward(), job.knownExamples())
                : trace -> trace.reward().orElse(0) >= 1.0, job.listener()::step);
        job.listener().trainingStarted(job.recipe().grpo().steps(), RunRecorder.read(job.folder()).size());
        TrainingRun.Result result;
        long start = System.nanoTime();
        try {
            result = job.brain().train(job.trainingQueries(), job.recipe().grpo().steps(), recorder,
                    job.task().name() + "-" + UUID.randomUUID().toString().substring(0, 8), heldOut(job, recorder));
        } finally {
            job.listener().trainingEnded();
        }
        job.times().add(spec.trainingConfig().algorithm().name(), start);
        job.listener().phase("save");
        job.brain().save(job.folder().resolve("adapter"));
        return result;
    }

    /** The recipe's held-out evaluation while training: the first test examples, none without a test split. */
    private static Optional<PeriodicEvaluation> heldOut(JobRun job, RunRecorder recorder) {
        ScratchRecipe.Evaluation evaluation = job.recipe().evaluation();
        List<TaskExample> test = job.split().test();
        if (evaluation.heldOutEvery() == 0 || test.isEmpty()) return Optional.empty();
        return Optional.of(new PeriodicEvaluation(evaluation.heldOutEvery(),
                test.subList(0, Math.min(evaluation.heldOutExamples(), test.size())), job.taskReward(), (step, version, report) -> {
            EvalRecord record = EvalRecord.of(report);
            HeldOutLine line = new HeldOutLine(step, version, record.examples(), record.correct(), record.accuracy(),
                    record.accuracyCi95(), record.meanReward());
            recorder.heldOut(line);
            job.listener().heldOut(line);
        }));
    }
}
