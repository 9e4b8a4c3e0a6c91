package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.run.RewardCurve;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.learn.core.Algorithm;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The job's last phase: {@code reward_curve.png} from the recorded steps, the verdict in plain words (whether training
 * helped, and if not what the figures say about why; for a teacher with errors, how far training went past it), and
 * {@code times.json}; then the job's {@link TaskTrainingJob.Summary}.
 */
final class ReportPhase {
    private static final Logger LOG = LoggerFactory.getLogger(ReportPhase.class);

    private ReportPhase() {
    }

    /** A job that trained: {@code result} is its training run's outcome. */
    static TaskTrainingJob.Summary trained(JobRun job, TrainingRun.Result result) throws IOException {
        Algorithm algorithm = job.spec().trainingConfig().algorithm();
        drawCurve(job.folder(), job.task().name() + ": " + algorithm.lowerName());
        List<String> verdict = verdict(job, algorithm);
        verdict.forEach(line -> LOG.info("{}", line));
        return summary(job, result, verdict);
    }

    /** A job of the warm-up alone (no training step asked): its model is the run's {@code distilled/} folder. */
    static TaskTrainingJob.Summary warmupOnly(JobRun job) throws IOException {
        return summary(job, null, List.of());
    }

    static List<String> verdict(JobRun job, Algorithm algorithm) throws IOException {
        Path run = job.folder();
        List<String> verdict = new ArrayList<>(TrainingVerdict.of(job.evals(), algorithm, RunRecorder.read(run)));
        // only for a teacher with errors: the plain oracle's share right is its replay's, not a teacher to beat
        Optional<Double> teacher = job.recipe().warmup().teacherErrors() > 0
                ? WarmupRecord.read(run).map(WarmupRecord::teacherAccuracy) : Optional.empty();
        EvalRecord trained = job.evals().get("after_" + algorithm.lowerName());
        if (teacher.isPresent() && trained != null) {
            verdict.add(String.format(Locale.ROOT, "teacher: %.1f%% of its demonstrations right; after %s %.1f%%, %+.1f points over it",
                    100 * teacher.get(), algorithm.name(), 100 * trained.accuracy(), 100 * (trained.accuracy() - teacher.get())));
        }
        return verdict;
    }

    private static TaskTrainingJob.Summary summary(JobRun job, TrainingRun.Result result, List<String> verdict)
            throws IOException {
        double wall = job.wallSeconds();
        TaskTrainingJob.writeJson(job.folder().resolve(PhaseTimes.FILE), job.times().record(wall));
        return new TaskTrainingJob.Summary(job.folder(), job.evals(), result, wall, verdict, job.times());
    }

    /**
     * The run's reward_curve.png, which nothing after it needs: a JVM that cannot draw text (a slim image without the
     * font libraries AWT links, or without fonts) says so in one line instead of failing a trained job.
     */
    private static void drawCurve(Path run, String title) {
        try {
            RewardCurve.write(run.resolve("reward_curve.png"), title, RunRecorder.read(run), RunRecorder.readHeldOut(run));
        } catch (LinkageError | java.awt.AWTError | InternalError e) {
            LOG.warn("reward_curve.png not drawn: this JVM cannot draw text ({}); metrics.jsonl holds its figures", e.getMessage());
        }
    }
}
