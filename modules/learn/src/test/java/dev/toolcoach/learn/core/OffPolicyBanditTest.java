package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.loss.GrpoConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (d) Asynchrony: every batch is trained three policy versions after it was sampled, two epochs per
 * batch, the ratio always against the behaviour log-probs. The policy still improves, and the stale
 * tokens are visibly corrected (clipped or capped), not dropped.
 */
class OffPolicyBanditTest {
    static final int LAG = 3;

    @Test
    void rolloutsThreeVersionsBehindStillImproveThePolicy() {
        GrpoConfig grpo = GrpoConfig.defaults().withEpochs(2);
        try (TinyPolicy policy = new TinyPolicy(4, 2, GrpoBanditTest.HEAD_SCALE, GrpoBanditTest.MODEL_SEED);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(grpo, 1e-2, GrpoBanditTest.seed()))) {
            ToolChoiceBandit bandit = new ToolChoiceBandit(GrpoBanditTest.seed());
            ArrayDeque<List<ScoredGroup>> queue = new ArrayDeque<>();
            double maxStaleness = 0;
            double corrected = 0;
            for (int step = 0; step < 30 + LAG; step++) {
                queue.add(bandit.rollouts(policy, learner.version(), 4, 8));
                if (queue.size() > LAG) {
                    GrpoMetrics m = learner.trainGrpo(queue.poll());
                    maxStaleness = Math.max(maxStaleness, m.meanStaleness());
                    corrected += m.clipFractionLow() + m.clipFractionHigh() + m.cappedFraction();
                }
            }
            double success = ToolChoiceBandit.successRate(policy);
            assertEquals(LAG, maxStaleness, 1e-9, "tokens were sampled three versions back");
            assertTrue(corrected > 0, "stale tokens should move outside the trust region and be clipped or capped");
            assertTrue(success > 0.9, "stale rollouts should still lift success above 90%, got " + success);
        }
    }
}
