package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.DpoMetrics;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.core.SftMetrics;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Collect → score → train on a tiny random model with LoRA, its rollouts sampled by the model's own generator. */
class TrainingStepTest {
    private static final int G = 4;
    private static final Reward PARITY = ParityReward.INSTANCE;

    private TinyAgentModel tiny;
    private LearnerCore core;

    @BeforeEach
    void setUp() {
        tiny = new TinyAgentModel(11);
        core = new LearnerCore(tiny.model, new LoraWeights(tiny.adapter), LearnerConfig.defaults(1e-2));
    }

    @AfterEach
    void tearDown() {
        core.close();
        tiny.close();
    }

    @Test
    void aGrpoStepChangesTheAdapterBumpsTheVersionAndLeavesALaggingGroupStale() {
        GroupCollector collector = new GroupCollector(G, 0);
        rollOut(collector, "g0", 0, G);
        rollOut(collector, "g1", 0, G);
        rollOut(collector, "late", 0, 2); // half of a group sampled by version 0
        AdapterWeights before = core.adapterWeights();

        StepResult result = new TrainingStep(core, Algorithm.parse("GRPO"), 0).run(scoreReady(collector, PARITY));

        assertEquals(1, result.version());
        AdapterWeights published = result.published().orElseThrow();
        assertEquals(1, published.version());
        assertTrue(changedTensors(before.tensors(), published.tensors()) > 0, "the step must move the adapter");
        GrpoMetrics metrics = (GrpoMetrics) result.metrics();
        assertEquals(2L * G * TinyAgentModel.NEW_TOKENS, metrics.tokensTrained());
        assertEquals(0, metrics.skippedGroups());

        // the rest of the late group comes from version 1: its oldest token is now one version behind
        Trace fresh = rollout("late", 2);
        assertTrue(Arrays.stream(fresh.tokens().policyVersions()).allMatch(v -> v == -1 || v == 1), "tokens carry version 1");
        assertEquals(Admission.WAITING, collector.offer(fresh, core.version()));
        assertEquals(Admission.GROUP_STALE, collector.offer(rollout("late", 3), core.version()));
        assertEquals(0, collector.readyCount());
    }

    @Test
    void aGroupWhoseRewardThrowsIsUnscoredWhileTheOthersTrain() {
        GroupCollector collector = new GroupCollector(G, 2);
        rollOut(collector, "good", 0, G);
        rollOut(collector, "bad", 0, G);
        GroupScorer scorer = new GroupScorer(PARITY, id -> id.equals("q-good")
                ? RewardContext.of(id, "", null).withField("parity", 0) : RewardContext.of(id, "", null));
        List<CompleteGroup> ready = collector.takeReady(10);

        List<ScoredGroup> scored = List.of(assertInstanceOf(GroupScorer.Scored.class,
                scorer.score(ready.get(0))).group());
        assertEquals(new GroupScorer.Unscored("bad", "group bad: reward 'parity' failed on rollout bad-0: example q-bad has no field 'parity'"),
                scorer.score(ready.get(1)));
        StepResult result = new TrainingStep(core, Algorithm.GRPO, 0).run(scored);

        assertEquals(1, result.version());
        assertEquals(0, result.skippedGroups());
    }

    @Test
    void dpoAndSftStepsAreChosenByCaseInsensitiveNameAndEachPublishesTheNextVersion() {
        GroupCollector collector = new GroupCollector(G, 2);
        rollOut(collector, "g0", 0, G);
        rollOut(collector, "g1", 0, G);
        List<ScoredGroup> scored = scoreReady(collector, PARITY);

        StepResult dpo = new TrainingStep(core, Algorithm.parse("Dpo"), 0).run(scored);
        StepResult sft = new TrainingStep(core, Algorithm.parse(" sft "), 0.5).run(scored);

        assertEquals(1, dpo.published().orElseThrow().version());
        assertEquals(2, ((DpoMetrics) dpo.metrics()).pairs(), "best against worst, one pair per group");
        assertEquals(2, sft.published().orElseThrow().version());
        SftMetrics sftMetrics = (SftMetrics) sft.metrics();
        long kept = scored.stream().flatMap(g -> g.traces().stream()).filter(t -> t.reward() >= 0.5).count();
        assertTrue(kept > 0 && kept < 2 * G, "the seeds give a mix of rewards around the threshold, got " + kept);
        assertEquals(2 * G - kept, sftMetrics.rejectedTraces());
        assertEquals(kept * TinyAgentModel.NEW_TOKENS, sftMetrics.tokensTrained());
    }

    @Test
    void aGroupWithoutRewardVarianceIsSkippedAndNothingIsPublished() {
        GroupCollector collector = new GroupCollector(G, 2);
        rollOut(collector, "flat", 0, G);

        StepResult result = new TrainingStep(core, Algorithm.GRPO, 0)
                .run(scoreReady(collector, Reward.perTrace("constant", (trace, example) -> 1.0)));

        assertEquals(0, result.version());
        assertTrue(result.published().isEmpty());
        assertEquals(1, result.skippedGroups());
    }

    @Test
    void anUnknownAlgorithmNamesTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Algorithm.parse("ppo"));
        assertEquals("unknown algorithm 'ppo'; valid: grpo, dpo, sft", e.getMessage());
    }

    /** Offers rollouts {@code from..to-1} of a group, each sampled by the current adapter with its own seed. */
    private void rollOut(GroupCollector collector, String groupId, int from, int to) {
        for (int i = from; i < to; i++) {
            collector.offer(rollout(groupId, i), core.version());
        }
    }

    /** Rollout {@code index} of a group: every rollout of a group starts from the group's prompt. */
    private Trace rollout(String groupId, int index) {
        int[] prompt = {1, 3 + Math.floorMod(groupId.hashCode(), TinyAgentModel.VOCAB - 3)};
        return tiny.rollout(groupId + "-" + index, groupId, prompt, 31L * index + groupId.hashCode());
    }

    private List<ScoredGroup> scoreReady(GroupCollector collector, Reward reward) {
        GroupScorer scorer = new GroupScorer(reward, id -> RewardContext.of(id, "", null).withField("parity", 0));
        return collector.takeReady(Integer.MAX_VALUE).stream()
                .map(g -> assertInstanceOf(GroupScorer.Scored.class,
                        scorer.score(g)).group())
                .toList();
    }

    private static long changedTensors(Map<String, HostTensor> before, Map<String, HostTensor> after) {
        return before.keySet().stream().filter(k -> !Arrays.equals(before.get(k).data(), after.get(k).data())).count();
    }
}
