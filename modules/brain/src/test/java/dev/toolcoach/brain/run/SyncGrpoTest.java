package dev.toolcoach.brain.run;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.learner.StepReport;
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

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synchronous loop pinned to the cluster: the same spec (policy lag 0, one seed) run embedded through coach,
 * athletes, tool servers and learner, and run through {@link SyncGrpo}, trains the same groups into the same steps.
 *
 * <p>Tolerance: both sample every rollout from the same seed, model, adapter version and engine batch, so the token ids
 * must be equal and so must the rewards, which are functions of the tokens. The behaviour log-probs come from batched
 * kernels whose summation order depends on which sequences share a decode step (the cluster's athletes start their
 * rollouts at different times, the loop all at once), so they, and the losses and adapters computed from them, agree to
 * float rounding: 1e-4 relative (1e-6 absolute for values near zero), where a real divergence (another token, another
 * group, another update) moves them by far more.
 */
class SyncGrpoTest {
    private static final double REL = 1e-4;
    private static final double ABS = 1e-6;

    /** The share of the first reply's characters that are letters: differs between rollouts of a random model. */
    private static final Reward LETTER_SHARE = Reward.perTrace("letter_share", (trace, example) -> {
        String reply = String.valueOf(trace.turns().get(0).modelCompletion());
        return reply.isEmpty() ? 0 : reply.chars().filter(Character::isLetter).count() / (double) reply.length();
    });

    @Test
    void aClusterRunAtLagZeroAndTheSynchronousLoopTrainTheSameGroupsIntoTheSameSteps(@TempDir Path dir) throws Exception {
        Path model = TinyChatModel.write(dir.resolve("model"), 7);
        Task task = ArithmeticTask.create(5, 3);
        TrainingConfig config = TrainingConfig.builder().groupSize(4).groupsPerStep(2).athletes(8).maxPolicyLag(0)
                .rollouts(new RolloutSettings(1.0, 12, 1, 4096)).seed(11)
                .lora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"))).learningRate(1e-2).build();
        TrainingRun.Spec spec = TrainingRun.Spec.builder().config(config).modelDir(model).actionFormat(ActionFormat.TOOL_N1)
                .suites(task.toolSuites()).dataset(task.examples()).steps(3).reward(LETTER_SHARE)
                .checkpointDir(dir.resolve("checkpoints")).jobId("sync-pin").build();

        List<StepReport> cluster = new CopyOnWriteArrayList<>();
        AdapterWeights clusterAdapter = TrainingRun.runEmbedded(spec, cluster::add).adapter();
        List<SyncGrpo.Step> loop;
        AdapterWeights loopAdapter;
        try (SyncGrpo sync = SyncGrpo.open(spec)) {
            loop = sync.run(step -> { });
            loopAdapter = sync.adapter();
        }

        assertEquals(3, cluster.size());
        assertEquals(3, loop.size());
        for (int s = 0; s < 3; s++) {
            StepReport c = cluster.get(s);
            SyncGrpo.Step l = loop.get(s);
            assertEquals(c.step(), l.step());
            assertEquals(c.version(), l.version(), "step " + l.step());
            assertEquals(ids(c.scored()), ids(l.groups()), "the coach opens g0, g1, ... over the dataset in order");
            Map<String, ScoredTrace> clusterTraces = byRollout(c.scored());
            for (ScoredTrace t : byRollout(l.groups()).values()) {
                ScoredTrace twin = clusterTraces.get(t.trace().rolloutId());
                assertArrayEquals(twin.trace().tokens().tokenIds(), t.trace().tokens().tokenIds(), t.trace().rolloutId());
                assertClose(twin.reward(), t.reward(), t.trace().rolloutId() + " reward");
                assertLogprobsClose(twin.trace(), t.trace());
            }
            GrpoMetrics cm = (GrpoMetrics) c.metrics();
            GrpoMetrics lm = (GrpoMetrics) l.metrics();
            assertEquals(cm.tokensTrained(), lm.tokensTrained());
            assertEquals(cm.skippedGroups(), lm.skippedGroups());
            assertClose(cm.loss(), lm.loss(), "step " + l.step() + " loss");
            assertClose(cm.gradNorm(), lm.gradNorm(), "step " + l.step() + " grad norm");
        }
        assertTrue(loop.stream().anyMatch(step -> step.version() > 0), "the pin is about trained steps");
        assertEquals(clusterAdapter.version(), loopAdapter.version());
        for (Map.Entry<String, HostTensor> e : clusterAdapter.tensors().entrySet()) {
            float[] a = e.getValue().data();
            float[] b = loopAdapter.tensors().get(e.getKey()).data();
            for (int i = 0; i < a.length; i++) assertClose(a[i], b[i], e.getKey());
        }
    }

    @Test
    void aJobTheLoopDoesNotRunIsRefusedByName(@TempDir Path dir) {
        Task task = ArithmeticTask.create(2, 3);
        TrainingRun.Spec dynamic = TrainingRun.Spec.builder().config(TrainingConfig.builder().oversampling(3).build()).modelDir(dir)
                .actionFormat(ActionFormat.TOOL_N1).suites(task.toolSuites()).dataset(task.examples())
                .steps(1).reward(LETTER_SHARE).checkpointDir(dir).jobId("dynamic").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SyncGrpo.open(dynamic));
        assertEquals("the synchronous loop does not sample dynamically: oversampling must be 1, was 3", e.getMessage());
    }

    private static List<String> ids(List<ScoredGroup> groups) {
        return groups.stream().map(ScoredGroup::groupId).toList();
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
