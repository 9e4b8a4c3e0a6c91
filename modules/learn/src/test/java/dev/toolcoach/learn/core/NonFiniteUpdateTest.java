package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.model.io.HostTensor;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A NaN loss or gradient never reaches the weights or AdamW's moments: the update is skipped and counted. */
class NonFiniteUpdateTest {
    @Test
    void nonFiniteLossOrGradientSkipsTheUpdateAndIsCounted() {
        try (TinyPolicy policy = new TinyPolicy(4, 1, GrpoBanditTest.HEAD_SCALE, 21);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(GrpoConfig.defaults().withEpochs(2), 1e-2, 5))) {
            ToolChoiceBandit bandit = new ToolChoiceBandit(9);
            List<ScoredGroup> batch = bandit.rollouts(policy, learner.version(), 4, 8);
            assertEquals(0, learner.trainGrpo(batch).skippedUpdates(), "a healthy batch is applied");

            // a poisoned adapter value turns every logit, loss and gradient into NaN
            LoraWeights weights = new LoraWeights(policy.adapter);
            Map<String, HostTensor> poisoned = new HashMap<>(weights.snapshot());
            String name = poisoned.keySet().stream().filter(k -> k.contains("lora_B")).sorted().findFirst().orElseThrow();
            float[] values = poisoned.get(name).data().clone();
            values[0] = Float.NaN;
            poisoned.put(name, new HostTensor(poisoned.get(name).shape(), values));
            weights.restore(poisoned);
            long stepBefore = learner.step();
            Map<String, HostTensor> momentsBefore = learner.checkpoint(new byte[0]).optimiser();

            GrpoMetrics grpo = learner.trainGrpo(batch);
            assertFalse(Double.isFinite(grpo.loss()), "the poisoned model should give a non-finite loss");
            assertEquals(2, grpo.skippedUpdates(), "both epochs' updates are skipped");
            List<ScoredTrace> demonstrations = batch.stream().flatMap(g -> g.traces().stream()).toList();
            SftMetrics sft = learner.trainSft(demonstrations, 0.5);
            assertTrue(sft.tokensTrained() > 0, "the bandit batch should hold rewarded traces");
            assertEquals(1, sft.skippedUpdates(), "the supervised update is skipped too");

            assertEquals(stepBefore, learner.step(), "no optimiser step was taken");
            Map<String, HostTensor> momentsAfter = learner.checkpoint(new byte[0]).optimiser();
            for (Map.Entry<String, HostTensor> e : momentsBefore.entrySet()) {
                assertArrayEquals(e.getValue().data(), momentsAfter.get(e.getKey()).data(), e.getKey());
            }
            for (Map.Entry<String, HostTensor> e : poisoned.entrySet()) {
                assertArrayEquals(e.getValue().data(), weights.snapshot().get(e.getKey()).data(), e.getKey());
            }
        }
    }
}
