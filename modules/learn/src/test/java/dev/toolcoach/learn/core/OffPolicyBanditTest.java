package dev.toolcoach.learn.core;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.loss.GrpoConfig;
import dev.toolcoach.learn.optim.AdamWConfig;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (d) Asynchrony: rollouts trained three policy versions after they were sampled, the ratio against the
 * behaviour log-probs, still improve the policy; without the correction ({@link GrpoConfig.RatioBaseline#CURRENT_POLICY},
 * ratio 1) stale batches carry the policy far from the one that sampled them.
 *
 * <p>Final success alone cannot show the second half on this bandit: at any resting point the current and
 * the behaviour policy agree, so both estimators settle where the head caps success (~0.98), and the
 * uncorrected one, taking every stale batch at full strength, often gets there first. What the correction
 * provably adds is the trust region around the sampling policy: once a token's ratio has left the clip
 * range in its advantage's direction its gradient is zero, so data the policy has already learned from
 * is not learned again. The replay tests measure exactly that.
 */
class OffPolicyBanditTest {
    static final int LAG = 3;
    /**
     * AdamW without momentum and with eps = 1 is plain SGD to within a factor 2 (gradients are clipped to
     * global norm 1, so every sqrt(v) is at most 1). The replay tests need it: Adam scales the little
     * gradient the clip leaves up to a full-size step and momentum keeps moving after the clip has zeroed
     * it. With the AdamW defaults at lr 1e-2 one fresh 8-epoch batch moved the corrected policy 1.0-2.0 nats
     * (seeds 100-104) and the uncorrected one to the head's cap, leaving nothing for the stale batches to show.
     */
    static final AdamWConfig PLAIN_SGD = new AdamWConfig(0, 0.999, 1.0, 0);
    static final double SGD_LR = 0.02;
    /** Many passes over each batch: without the clip, every pass pushes the same direction again. */
    static final int REPLAY_EPOCHS = 8;

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

    /**
     * The same four batches, sampled from the fresh policy, go to a corrected and an uncorrected learner.
     * With the correction, the first batch lifts success and the stale ones barely move the policy (their
     * tokens already sit past the clip). Without it, each stale batch is taken as fresh, and the policy ends
     * far further (in KL) from the one that sampled the data.
     * Over seeds 1-20: corrected success 0.42-0.46, stale batches moved it 0.0000-0.0129 nats in all, drift
     * 0.064-0.097; uncorrected stale batches moved it 0.31-0.39, drift 2.31-2.47 (25-37 times the corrected).
     */
    @Test
    void staleBatchesDoNotMoveTheCorrectedPolicyAgainButCarryTheUncorrectedOneAway() {
        double[] deterministic = {0, 0, 1, 0};
        StaleReplay corrected = replayStale(GrpoConfig.RatioBaseline.BEHAVIOUR, deterministic);
        StaleReplay uncorrected = replayStale(GrpoConfig.RatioBaseline.CURRENT_POLICY, deterministic);
        String figures = "corrected " + corrected + ", uncorrected " + uncorrected;
        assertTrue(corrected.success() > 0.35, "with the correction, stale batches should still lift success from ~0.25: " + figures);
        assertTrue(corrected.staleMovement() < 0.03, "stale batches should barely move the corrected policy: " + figures);
        assertTrue(uncorrected.staleMovement() > 0.15, "stale batches should move the uncorrected policy as if fresh: " + figures);
        assertTrue(uncorrected.drift() > 10 * corrected.drift(),
                "without the correction the policy should end >10x further from the sampling policy: " + figures);
    }

    /**
     * No tool pays more than another (each pays 1 with probability 1/2), so any move away from the sampling
     * policy is learned from noise. With the correction the stale batches stay inside the trust region
     * around the sampling policy; without it every batch's noise is fitted again at full strength.
     * Over seeds 1-20, farthest KL from the sampling policy: corrected 0.018-0.045, uncorrected 0.21-2.07
     * (8-79 times the corrected).
     */
    @Test
    void withoutTheCorrectionStaleBatchesOfPureNoiseDriveThePolicyFarFromTheSampler() {
        double[] noise = {0.5, 0.5, 0.5, 0.5};
        StaleReplay corrected = replayStale(GrpoConfig.RatioBaseline.BEHAVIOUR, noise);
        StaleReplay uncorrected = replayStale(GrpoConfig.RatioBaseline.CURRENT_POLICY, noise);
        String figures = "corrected " + corrected + ", uncorrected " + uncorrected;
        assertTrue(corrected.farthest() < 0.1, "with the correction the policy should stay near the sampler: " + figures);
        assertTrue(uncorrected.farthest() > 4 * corrected.farthest(),
                "without the correction the policy should go >4x further from the sampler: " + figures);
    }

    /**
     * @param movedBy  KL(before || after) of each batch's update on the evaluation prompts; batch i is trained i versions behind
     * @param distance KL(sampling policy || policy after batch i) on the evaluation prompts
     * @param success  final expected success
     */
    record StaleReplay(double[] movedBy, double[] distance, double success) {
        /** How far the stale batches (1..LAG) moved the policy in all. */
        double staleMovement() {
            return Arrays.stream(movedBy, 1, movedBy.length).sum();
        }

        double drift() {
            return distance[distance.length - 1];
        }

        double farthest() {
            return Arrays.stream(distance).max().orElseThrow();
        }

        @Override
        public String toString() {
            return String.format("{movedBy=%s, distance=%s, success=%.3f}", rounded(movedBy), rounded(distance), success);
        }

        private static String rounded(double[] values) {
            return Arrays.toString(Arrays.stream(values).map(v -> Math.round(v * 1e4) / 1e4).toArray());
        }
    }

    /** LAG + 1 batches sampled from the fresh policy, then trained in turn: the last one LAG versions behind. */
    static StaleReplay replayStale(GrpoConfig.RatioBaseline baseline, double[] payout) {
        GrpoConfig grpo = GrpoConfig.defaults().withEpochs(REPLAY_EPOCHS).withRatioBaseline(baseline);
        try (TinyPolicy policy = new TinyPolicy(4, 2, GrpoBanditTest.HEAD_SCALE, GrpoBanditTest.MODEL_SEED);
             LearnerCore learner = new LearnerCore(policy.model, new LoraWeights(policy.adapter),
                     GrpoBanditTest.config(grpo, PLAIN_SGD, SGD_LR, GrpoBanditTest.seed()))) {
            // same seed for both baselines: both learners train on identical batches
            ToolChoiceBandit bandit = new ToolChoiceBandit(GrpoBanditTest.seed(), payout);
            List<List<ScoredGroup>> batches = new ArrayList<>();
            for (int i = 0; i <= LAG; i++) {
                batches.add(bandit.rollouts(policy, learner.version(), 4, 8));
            }
            float[][] sampler = ToolChoiceBandit.evaluationLogprobs(policy);
            double[] movedBy = new double[batches.size()];
            double[] distance = new double[batches.size()];
            float[][] before = sampler;
            for (int i = 0; i < batches.size(); i++) {
                learner.trainGrpo(batches.get(i));
                float[][] after = ToolChoiceBandit.evaluationLogprobs(policy);
                movedBy[i] = ToolChoiceBandit.meanKl(before, after);
                distance[i] = ToolChoiceBandit.meanKl(sampler, after);
                before = after;
            }
            return new StaleReplay(movedBy, distance, ToolChoiceBandit.successRate(policy));
        }
    }
}
