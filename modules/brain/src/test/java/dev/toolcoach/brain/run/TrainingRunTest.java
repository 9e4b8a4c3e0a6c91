package dev.toolcoach.brain.run;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole embedded job on a tiny random chat model: coach, learner, athletes, tool servers and the
 * adapter broadcast on a one-node cluster, then the same job resumed from its checkpoint.
 */
class TrainingRunTest {

    /** Varies from rollout to rollout of a random model, so every group has signal and every step trains. */
    private static final Reward LETTERS = Reward.perTrace("letters", (trace, example) -> letters(trace));

    private static double letters(Trace trace) {
        String text = trace.finalAnswer() != null ? trace.finalAnswer() : String.valueOf(trace.turns().get(0).modelCompletion());
        return text.isEmpty() ? 0 : text.chars().filter(Character::isLetter).count() / (double) text.length();
    }

    @Test
    void aJobTrainsEveryGroupOnceBroadcastsEachVersionToTheAthletesAndResumesFromItsCheckpoint(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        Task task = ArithmeticTask.create(6, 3);
        TrainingConfig config = TrainingConfig.builder().groupSize(4).groupsPerStep(2).athletes(4)
                .rollouts(new RolloutSettings(1.0, 12, 1, 4096)).checkpointEvery(1)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        List<StepReport> steps = new CopyOnWriteArrayList<>();
        TrainingRun.Spec spec = TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                .suites(task.toolSuites()).dataset(task.examples()).steps(3).reward(LETTERS)
                .checkpointDir(dir.resolve("checkpoints")).jobId("job-1").build();

        TrainingRun.Result result = TrainingRun.runEmbedded(spec, steps::add);

        assertEquals(-1, result.resumedFromVersion());
        assertEquals(3, steps.size());
        assertEquals(List.of(1, 2, 3), steps.stream().map(StepReport::version).toList());
        assertEquals(3, result.adapter().version());
        assertEquals(6, result.accounts().trained() + result.accounts().skipped());
        assertEquals(0, result.accounts().pending());
        assertEquals(24, result.accounts().received() - result.accounts().duplicates(), "every rollout of 6 groups, once");
        // the learner's versions reached the athletes' engine: later rollouts were sampled by trained adapters
        int newest = steps.get(2).scored().stream().flatMap(g -> g.traces().stream())
                .flatMapToInt(t -> Arrays.stream(t.trace().tokens().policyVersions())).max().orElseThrow();
        assertTrue(newest >= 1, "the last step trained on tokens of version >= 1, saw " + newest);

        List<StepReport> resumedSteps = new CopyOnWriteArrayList<>();
        TrainingRun.Result resumed = TrainingRun.runEmbedded(spec.toBuilder().steps(4).jobId("job-2").build(), resumedSteps::add);

        assertEquals(3, resumed.resumedFromVersion());
        assertEquals(1, resumedSteps.size(), "only the fourth step is left");
        assertEquals(4, resumed.adapter().version());
        List<String> groups = resumedSteps.get(0).scored().stream().map(ScoredGroup::groupId).toList();
        assertEquals(List.of("g6", "g7"), groups.stream().sorted().toList(), "the job goes on with new groups");
    }

    @Test
    void aRunWhoseStepsNeverCompleteIsEndedByTheStallWatchdogAndItsHungStepInterrupted(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        Task task = ArithmeticTask.create(6, 3);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Reward hangs = Reward.perTrace("hangs", (trace, example) -> {
            try {
                never.await(); // a reward that never answers: no step can complete
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
            return 0;
        });
        TrainingConfig config = TrainingConfig.builder().groupSize(2).groupsPerStep(1).athletes(2)
                .rollouts(new RolloutSettings(1.0, 4, 1, 4096))
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj"))).learningRate(1e-2)
                .limits(new TrainingConfig.Limits(Duration.ofHours(1), Duration.ofSeconds(4), 3)).build();
        TrainingRun.Spec spec = TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                .suites(task.toolSuites()).dataset(task.examples()).steps(2).reward(hangs)
                .checkpointDir(dir.resolve("checkpoints")).jobId("job-stalls").build();

        long start = System.nanoTime();
        TrainingFailedException failed = assertThrows(TrainingFailedException.class, () -> TrainingRun.runEmbedded(spec, step -> { }));
        assertTrue(failed.getMessage().startsWith("training stopped: no learner step completed within the stall timeout of PT4S"),
                failed.getMessage());
        assertTrue(interrupted.get(), "the hung step was interrupted, not waited for");
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos(), "ended well before the training thread's minute");
    }
}
