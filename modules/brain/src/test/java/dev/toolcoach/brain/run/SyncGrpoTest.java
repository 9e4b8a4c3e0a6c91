package dev.toolcoach.brain.run;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.learner.StepProbe;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.synthetic.ArithmeticTask;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synchronous loop pinned to the cluster: the same spec (policy lag 0, one seed) run embedded through coach,
 * athletes, tool servers and learner, and run through {@link SyncGrpo}, trains the same groups into the same steps,
 * dynamic sampling's dropped and refilled groups included; and the loop resumes, probes and stops as a job does.
 *
 * <p>Tolerance: both sample every rollout from the same seed, model, adapter version and engine batch, so the token ids
 * must be equal and so must the rewards, which are functions of the tokens. The behaviour log-probs come from batched
 * kernels whose summation order depends on which sequences share a decode step (the cluster's athletes start their
 * rollouts at different times, the loop's slots in its own order), so they, and the losses and adapters computed from
 * them, agree to float rounding: 1e-4 relative (1e-6 absolute for values near zero), where a real divergence (another
 * token, another group, another update) moves them by far more.
 */
class SyncGrpoTest {
    private static final double REL = 1e-4;
    private static final double ABS = 1e-6;

    /** The share of the first reply's characters that are letters: differs between rollouts of a random model. */
    private static double letterShare(Trace trace) {
        String reply = String.valueOf(trace.turns().get(0).modelCompletion());
        return reply.isEmpty() ? 0 : reply.chars().filter(Character::isLetter).count() / (double) reply.length();
    }

    private static final Reward LETTER_SHARE = Reward.perTrace("letter_share", (trace, example) -> letterShare(trace));

    /** The even-numbered questions pay the same for every rollout: under dynamic sampling their groups are dropped. */
    private static final Reward HALF_FLAT = Reward.perTrace("half_flat", (trace, example) -> {
        int index = Integer.parseInt(example.queryId().substring(example.queryId().lastIndexOf('_') + 1));
        return index % 2 == 0 ? 0.5 : letterShare(trace);
    });

    private static TrainingRun.Spec spec(Path dir, Path model, int oversampling, Reward reward, int steps) {
        Task task = ArithmeticTask.create(5, 3);
        TrainingConfig config = TrainingConfig.builder().groupSize(4).groupsPerStep(2).athletes(8).maxPolicyLag(0)
                .oversampling(oversampling).rollouts(new RolloutSettings(1.0, 12, 1, 4096)).seed(11).checkpointEvery(1)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        return TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                .suites(task.toolSuites()).dataset(task.examples()).steps(steps).reward(reward)
                .checkpointDir(dir.resolve("checkpoints")).jobId("sync-pin").build();
    }

    @ParameterizedTest(name = "oversampling {0}")
    @ValueSource(ints = {1, 3})
    void aClusterRunAtLagZeroAndTheSynchronousLoopTrainTheSameGroupsIntoTheSameSteps(int oversampling, @TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        Reward reward = oversampling == 1 ? LETTER_SHARE : HALF_FLAT;

        List<StepReport> cluster = new CopyOnWriteArrayList<>();
        TrainingRun.Result clusterResult = TrainingRun.runEmbedded(spec(dir.resolve("cluster"), model, oversampling, reward, 3), cluster::add);
        List<StepReport> loop = new CopyOnWriteArrayList<>();
        TrainingRun.Result loopResult = SyncGrpo.run(spec(dir.resolve("loop"), model, oversampling, reward, 3), loop::add);

        assertEquals(3, cluster.size());
        assertEquals(3, loop.size());
        for (int s = 0; s < 3; s++) assertSameStep(cluster.get(s), loop.get(s));
        assertTrue(loop.stream().anyMatch(step -> step.version() > 0), "the pin is about trained steps");
        if (oversampling > 1) {
            for (StepReport step : loop) {
                assertEquals(2, step.informativeGroups(), "only groups with signal are trained");
                assertEquals(2 + step.noSignal().size(), step.groupsSampled(), "a step counts the queries it sampled, dropped ones too");
            }
            assertTrue(loopResult.accounts().dropped().get(GroupDropped.Reason.NO_SIGNAL) >= 2,
                    "the flat questions came up, were dropped and refilled by fresh queries");
        }
        // received and duplicates may differ: an athlete sends a trace again when the learner's ack is late
        assertEquals(clusterResult.accounts().groupsComplete(), loopResult.accounts().groupsComplete());
        assertEquals(clusterResult.accounts().dropped(), loopResult.accounts().dropped());
        assertEquals(clusterResult.accounts().trained(), loopResult.accounts().trained());
        assertEquals(clusterResult.accounts().skipped(), loopResult.accounts().skipped());
        assertEquals(-1, loopResult.resumedFromVersion());
        assertAdaptersClose(clusterResult.adapter(), loopResult.adapter());
    }

    @Test
    void aRunResumedFromItsCheckpointTrainsTheRemainingStepAsTheUninterruptedRunDid(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        List<StepReport> straight = new CopyOnWriteArrayList<>();
        SyncGrpo.run(spec(dir.resolve("straight"), model, 1, LETTER_SHARE, 2), straight::add);

        SyncGrpo.run(spec(dir.resolve("stopped"), model, 1, LETTER_SHARE, 1), step -> { });
        List<StepReport> rest = new CopyOnWriteArrayList<>();
        TrainingRun.Result resumed = SyncGrpo.run(spec(dir.resolve("stopped"), model, 1, LETTER_SHARE, 2), rest::add);

        assertEquals(straight.get(0).version(), resumed.resumedFromVersion());
        assertEquals(1, rest.size(), "only the second step is left");
        assertSameStep(straight.get(1), rest.get(0));
    }

    /** The same seeds and adapters; the batches differ, which tips no draw here (a long hpo run tipped one: bench README). */
    @Test
    void aTurnBarrierChangesWhenRolloutsAreSampledNotWhatIsSampled(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        List<StepReport> free = new CopyOnWriteArrayList<>();
        SyncGrpo.run(spec(dir.resolve("free"), model, 1, LETTER_SHARE, 2), free::add);
        TrainingRun.Spec base = spec(dir.resolve("barrier"), model, 1, LETTER_SHARE, 2);
        List<StepReport> barrier = new CopyOnWriteArrayList<>();
        SyncGrpo.run(base.toBuilder().config(base.config().toBuilder().turnBarrier(true).build()).build(), barrier::add);

        assertEquals(2, barrier.size());
        for (int s = 0; s < 2; s++) assertSameStep(free.get(s), barrier.get(s));
    }

    @Test
    void aProbeDueAtAStepRunsWithThatStepsAdapterBeforeTheNextStep(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        List<String> events = new CopyOnWriteArrayList<>();
        StepProbe everySecond = new StepProbe() {
            @Override
            public boolean due(long jobStep) {
                return jobStep % 2 == 0;
            }

            @Override
            public void run(long jobStep, AdapterWeights adapter) {
                events.add("probe " + jobStep + " v" + adapter.version());
            }
        };
        TrainingRun.Spec spec = spec(dir, model, 1, LETTER_SHARE, 3).toBuilder().probe(everySecond).build();

        SyncGrpo.run(spec, step -> events.add("step " + step.step() + " v" + step.version()));

        assertEquals(List.of("step 1 v1", "step 2 v2", "probe 2 v2", "step 3 v3"), events);
    }

    @Test
    void aRunWhoseRewardNeverAnswersIsEndedByTheStallWatchdogAndTheRewardInterrupted(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        CountDownLatch never = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Reward hangs = Reward.perTrace("hangs", (trace, example) -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
                Thread.currentThread().interrupt();
            }
            return 0;
        });
        TrainingRun.Spec base = spec(dir, model, 1, hangs, 2);
        TrainingRun.Spec spec = base.toBuilder().config(base.config().toBuilder()
                .limits(new TrainingConfig.Limits(Duration.ofHours(1), Duration.ofSeconds(3), 3)).build()).build();

        TrainingFailedException failed = assertThrows(TrainingFailedException.class, () -> SyncGrpo.run(spec, step -> { }));

        assertTrue(failed.getMessage().startsWith("training stopped: no learner step completed within the stall timeout of PT3S"),
                failed.getMessage());
        assertTrue(interrupted.get(), "the hung reward was interrupted, not waited for");
    }

    @Test
    void aStepListenerThatFailsStopsTheJobNamingTheStep(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        TrainingFailedException failed = assertThrows(TrainingFailedException.class, () -> SyncGrpo.run(
                spec(dir, model, 1, LETTER_SHARE, 2), step -> {
                    throw new IllegalStateException("disk full");
                }));
        assertEquals("training stopped: recording step 1 failed: disk full", failed.getMessage());
    }

    @Test
    void aJobTheLoopDoesNotRunIsRefusedByName(@TempDir Path dir) throws Exception {
        TrainingRun.Spec base = spec(dir, dir, 1, LETTER_SHARE, 1);
        TrainingRun.Spec lagged = base.toBuilder().config(base.config().toBuilder().maxPolicyLag(1).build()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SyncGrpo.run(lagged, step -> { }));
        assertEquals("the synchronous loop runs at policy lag 0, was 1", e.getMessage());
    }

    private static void assertSameStep(StepReport expected, StepReport actual) {
        String step = "step " + actual.step();
        assertEquals(expected.step(), actual.step());
        assertEquals(expected.version(), actual.version(), step);
        assertEquals(ids(expected.scored()), ids(actual.scored()), step + ": the coach opens g0, g1, ... over the dataset in order");
        assertEquals(ids(expected.noSignal()), ids(actual.noSignal()), step + ": the same groups dropped for lack of signal");
        assertEquals(expected.groupsSampled(), actual.groupsSampled(), step);
        Map<String, ScoredTrace> expectedTraces = byRollout(expected.sampled());
        for (ScoredTrace t : byRollout(actual.sampled()).values()) {
            ScoredTrace twin = expectedTraces.get(t.trace().rolloutId());
            assertFalse(twin == null, t.trace().rolloutId());
            assertArrayEquals(twin.trace().tokens().tokenIds(), t.trace().tokens().tokenIds(), t.trace().rolloutId());
            assertClose(twin.reward(), t.reward(), t.trace().rolloutId() + " reward");
            assertLogprobsClose(twin.trace(), t.trace());
        }
        GrpoMetrics em = (GrpoMetrics) expected.metrics();
        GrpoMetrics am = (GrpoMetrics) actual.metrics();
        assertEquals(em.tokensTrained(), am.tokensTrained(), step);
        assertEquals(em.skippedGroups(), am.skippedGroups(), step);
        assertClose(em.loss(), am.loss(), step + " loss");
        assertClose(em.gradNorm(), am.gradNorm(), step + " grad norm");
    }

    private static void assertAdaptersClose(AdapterWeights expected, AdapterWeights actual) {
        assertEquals(expected.version(), actual.version());
        for (Map.Entry<String, HostTensor> e : expected.tensors().entrySet()) {
            float[] a = e.getValue().data();
            float[] b = actual.tensors().get(e.getKey()).data();
            for (int i = 0; i < a.length; i++) assertClose(a[i], b[i], e.getKey());
        }
    }

    private static List<String> ids(List<ScoredGroup> groups) {
        return groups.stream().map(ScoredGroup::groupId).sorted().toList();
    }

    private static Map<String, ScoredTrace> byRollout(List<ScoredGroup> groups) {
        return groups.stream().flatMap(g -> g.traces().stream())
                .collect(Collectors.toMap(t -> t.trace().rolloutId(), Function.identity()));
    }

    private static void assertLogprobsClose(Trace expected, Trace actual) {
        float[] a = expected.tokens().behaviorLogprobs();
        float[] b = actual.tokens().behaviorLogprobs();
        assertEquals(a.length, b.length, actual.rolloutId());
        for (int i = 0; i < a.length; i++) assertClose(a[i], b[i], actual.rolloutId() + " log-prob " + i);
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, Math.max(ABS, REL * Math.max(Math.abs(expected), Math.abs(actual))), what);
    }
}
