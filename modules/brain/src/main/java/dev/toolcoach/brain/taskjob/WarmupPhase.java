package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.OracleTeacher;
import dev.toolcoach.brain.distill.SkipReason;
import dev.toolcoach.brain.distill.TeacherFactory;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.tasks.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Locale;

/**
 * The warm-up: the task's oracle (misreading its answer on the recipe's share of queries when it names one) answers the
 * warm-up's queries in the format the model acts in, the traces the job's reward counts right are kept, and the model is
 * trained on them by SFT into {@code distilled/}; its passes and the pass kept go to {@code warmup.json}.
 */
final class WarmupPhase {
    private static final Logger LOG = LoggerFactory.getLogger(WarmupPhase.class);

    private WarmupPhase() {
    }

    static void run(JobRun job) throws IOException {
        job.listener().phase("warm-up");
        ScratchRecipe recipe = job.recipe();
        long start = System.nanoTime();
        DistillReport warmup = job.brain().distill(
                new DistillDataset(job.task().name(), TaskTrainingJob.warmupQueries(job.split(), recipe), job.taskReward()),
                teacher(job.task(), recipe, job.spec().seed()), recipe.warmup().demonstrationThreshold(),
                recipe.warmup().epochs(), recipe.warmup().batch(), recipe.warmupLearner(job.spec().seed()),
                recipe.warmup().validation());
        job.times().add(PhaseTimes.WARMUP, start);
        LOG.info("warm-up: {} oracle traces kept of {}{}, {} tokens trained, the weights of pass {} of {} kept",
                warmup.keptCount(), warmup.collected(), dropped(warmup, recipe), warmup.trainedTokens(), warmup.keptPass(),
                warmup.passes().size());
        if (warmup.keptCount() == 0 && warmup.collected() > 0) {
            // said plainly: otherwise GRPO silently starts from an untrained model and every reward is 0
            LOG.warn("the warm-up kept none of its {} oracle traces{}: GRPO starts untrained", warmup.collected(),
                    dropped(warmup, recipe));
        }
        Double teacherAccuracy = warmup.collected() == 0 ? null
                : warmup.kept().stream().filter(t -> t.reward() >= ScratchRecipe.Warmup.RIGHT).count() / (double) warmup.collected();
        if (recipe.warmup().teacherErrors() > 0) {
            LOG.info("the teacher (the oracle, misreading the answer on {}% of the queries) gave {}% right demonstrations of {}",
                    Math.round(100 * recipe.warmup().teacherErrors()), Math.round(1000 * teacherAccuracy) / 10.0,
                    warmup.collected());
        }
        TaskTrainingJob.writeJson(job.folder().resolve(WarmupRecord.FILE),
                new WarmupRecord(warmup.passes(), warmup.keptPass(), teacherAccuracy));
    }

    /** The warm-up's teacher: the task's oracle, misreading its answer on the recipe's share of the queries when it names one. */
    private static TeacherFactory teacher(Task task, ScratchRecipe recipe, long seed) {
        double errors = recipe.warmup().teacherErrors();
        return errors == 0 ? TeacherFactory.oracle(task.name())
                : TeacherFactory.oracle(task.name(), new OracleTeacher.Errors(errors, seed));
    }

    /**
     * Why demonstrations were dropped, with the limits that cut them (empty when none was): a task whose oracle outgrows
     * the recipe's limits otherwise shows only as a low kept count.
     */
    static String dropped(DistillReport warmup, ScratchRecipe recipe) {
        int noAnswer = warmup.skipped(SkipReason.NO_ANSWER);
        int errors = warmup.skipped(SkipReason.TEACHER_ERROR);
        int below = warmup.skipped(SkipReason.BELOW_THRESHOLD);
        if (noAnswer + errors + below == 0) return "";
        ScratchRecipe.Rollouts limits = recipe.rollouts();
        return String.format(Locale.ROOT, " (%d without an answer: cut at maxNewTokens %d per reply, maxTotalTokens %d per context "
                        + "or maxTurns %d; %d teacher errors; %d below the reward threshold)",
                noAnswer, limits.maxNewTokens(), limits.maxTotalTokens(), limits.maxTurns(), errors, below);
    }
}
