package dev.toolcoach.learn.core;

import dev.toolcoach.learn.loss.DpoConfig;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.learn.optim.AdamWConfig;
import dev.toolcoach.learn.optim.LrSchedule;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** (c) DPO on the same bandit, the reference being the model with its adapter left out. */
class DpoBanditTest {

    @Test
    void dpoLiftsSuccessFromAQuarterToAboveNinetyPercent() {
        DpoConfig dpo = new DpoConfig(0.5, 0.0, DpoConfig.Variant.SIGMOID, DpoConfig.PairMode.ALL_PAIRS, 0.5);
        LearnerConfig config = new LearnerConfig(GrpoConfig.defaults(), dpo, AdamWConfig.defaults(),
                LrSchedule.constant(1e-2), 1.0, 32, GrpoBanditTest.seed());
        try (TinyPolicy policy = new TinyPolicy(4, 2, GrpoBanditTest.HEAD_SCALE, GrpoBanditTest.MODEL_SEED);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter), config)) {
            ToolChoiceBandit bandit = new ToolChoiceBandit(GrpoBanditTest.seed());
            double before = ToolChoiceBandit.successRate(policy);
            DpoMetrics first = null;
            for (int step = 0; step < 15; step++) {
                DpoMetrics m = learner.trainDpo(bandit.rollouts(policy, learner.version(), 4, 8));
                first = first == null ? m : first;
            }
            double after = ToolChoiceBandit.successRate(policy);
            assertEquals(Math.log(2), first.loss(), 1e-3, "the first DPO step starts at the reference: loss log 2");
            assertTrue(before > 0.2 && before < 0.3, "fresh policy should pick the tool about 1 in 4, got " + before);
            assertTrue(after > 0.9, "DPO should lift success above 90%, got " + after);
        }
    }
}
