package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.checkpoint.CheckpointStore;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A learner restored from a checkpoint takes exactly the step the original would have taken. */
class ResumeTest {
    @TempDir
    Path dir;

    static LearnerConfig config(double beta) {
        return GrpoBanditTest.config(GrpoConfig.defaults().withEpochs(2).withBeta(beta), 1e-2, 5).withMicroBatchRows(8);
    }

    @Test
    void resumeReproducesTheNextStep() throws Exception {
        resumeReproducesTheNextStep(0);
    }

    /**
     * The KL path adds constants that backward reads (beta, the k3 cap); they are manager-owned tensors
     * (see dev.toolcoach.model.nn.ScopedConstant), so a GC between forward and backward cannot change the resumed step.
     */
    @Test
    void resumeReproducesTheNextStepWithAKlPenalty() throws Exception {
        resumeReproducesTheNextStep(0.04);
    }

    @Test
    void aCheckpointThatFailedToSaveStaysDueAndTheNextStepSavesIt() throws Exception {
        try (TinyPolicy policy = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter), config(0))) {
            Path blocked = dir.resolve("checkpoints");
            Files.writeString(blocked, "a file where the folder should be");
            PeriodicCheckpoints checkpoints = new PeriodicCheckpoints(new CheckpointStore(blocked, 2), 2);
            assertThrows(java.io.UncheckedIOException.class, () -> checkpoints.afterBatch(learner, new byte[] {1}, 2));
            assertTrue(checkpoints.due(2), "the failed save must not count as saved");
            assertTrue(checkpoints.due(3));

            Files.delete(blocked);
            assertTrue(checkpoints.afterBatch(learner, new byte[] {2}, 3).isPresent(), "the next step saves the missed checkpoint");
            assertFalse(checkpoints.due(3));
        }
    }

    /**
     * A new job that starts from a trained adapter (a user's, continued) holds it as version 1 and trains on from it;
     * a learner that has stepped cannot be put back to a start.
     */
    @Test
    void aNewJobStartsFromAGivenAdapterAsVersionOne() throws Exception {
        ToolChoiceBandit bandit = new ToolChoiceBandit(9);
        AdapterWeights trained;
        try (TinyPolicy policy = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter), config(0))) {
            learner.trainGrpo(bandit.rollouts(policy, learner.version(), 2, 4));
            trained = learner.adapterWeights();
            assertThrows(IllegalStateException.class, () -> learner.startFrom(trained));
        }
        try (TinyPolicy fresh = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 22);
             LearnerCore continued = new LearnerCore(fresh.model, new LoraWeights(fresh.adapter), config(0))) {
            continued.startFrom(trained);

            assertEquals(1, continued.version());
            AdapterWeights start = continued.adapterWeights();
            assertSame(new AdapterWeights(trained.config(), 1, trained.tensors()), start);
            continued.trainGrpo(bandit.rollouts(fresh, continued.version(), 2, 4));
            assertTrue(continued.version() > 1, "trained on from version 1");
            AdapterWeights after = continued.adapterWeights();
            assertTrue(start.tensors().keySet().stream().anyMatch(k -> !java.util.Arrays.equals(start.tensors().get(k).data(),
                    after.tensors().get(k).data())), "the adapter moved on from the start");
        }
    }

    private void resumeReproducesTheNextStep(double beta) throws Exception {
        List<List<ScoredGroup>> batches = new ArrayList<>();
        try (TinyPolicy policy = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter), config(beta))) {
            PeriodicCheckpoints checkpoints = new PeriodicCheckpoints(new CheckpointStore(dir, 2), 4);
            ToolChoiceBandit bandit = new ToolChoiceBandit(9);
            for (int b = 0; b < 3; b++) {
                batches.add(bandit.rollouts(policy, learner.version(), 2, 4));
                learner.trainGrpo(batches.get(b));
                checkpoints.afterBatch(learner, new byte[] {(byte) b});
            }
            try (var files = Files.list(dir)) {
                assertEquals(1, files.count(), "two epochs per batch: only step 4 crossed the interval of 4");
            }
            batches.add(bandit.rollouts(policy, learner.version(), 2, 4));
            // the checkpoint holds step 4 (after batch 1): replaying batch 2, then batch 3 on both must agree exactly
            try (TinyPolicy fresh = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 21);
                 LearnerCore resumed = new LearnerCore(fresh.model, new LoraWeights(fresh.adapter), config(beta))) {
                byte[] cursor = new PeriodicCheckpoints(new CheckpointStore(dir, 2), 4).resume(resumed).orElseThrow();
                assertArrayEquals(new byte[] {1}, cursor);
                assertEquals(4, resumed.step());
                assertEquals(2, resumed.version());
                resumed.trainGrpo(batches.get(2));
                GrpoMetrics next = resumed.trainGrpo(batches.get(3));
                GrpoMetrics original = learner.trainGrpo(batches.get(3));
                assertTrue(beta == 0 || original.kl() > 0, "the KL penalty should be active, kl " + original.kl());
                // CPU kernels may reduce in a different order run to run: equal up to float rounding
                assertClose(original, next);
                assertEquals(learner.random().state(), resumed.random().state());
                assertSame(learner.adapterWeights(), resumed.adapterWeights());
            }
        }
    }

    static void assertClose(GrpoMetrics a, GrpoMetrics b) {
        assertEquals(a.version(), b.version());
        assertEquals(a.tokensTrained(), b.tokensTrained());
        assertEquals(a.loss(), b.loss(), 1e-5);
        assertEquals(a.meanRatio(), b.meanRatio(), 1e-5);
        assertEquals(a.kl(), b.kl(), 1e-5);
        assertEquals(a.gradNorm(), b.gradNorm(), 1e-3 * a.gradNorm());
    }

    static void assertSame(AdapterWeights a, AdapterWeights b) {
        assertEquals(a.version(), b.version());
        assertEquals(a.tensors().keySet(), b.tensors().keySet());
        for (Map.Entry<String, HostTensor> e : a.tensors().entrySet()) {
            assertArrayEquals(e.getValue().data(), b.tensors().get(e.getKey()).data(), 1e-5f, e.getKey());
        }
    }
}
