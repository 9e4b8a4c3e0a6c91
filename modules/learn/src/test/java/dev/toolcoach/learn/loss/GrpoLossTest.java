package dev.toolcoach.learn.loss;

import dev.toolcoach.model.TokenScores;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.learn.batch.PaddedBatch;
import dev.toolcoach.learn.batch.TrainingSequence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** (b) GRPO loss values and gradients computed by hand. */
class GrpoLossTest {
    static NDManager manager;

    @BeforeAll
    static void open() {
        manager = NDManager.newBaseManager();
    }

    @AfterAll
    static void close() {
        manager.close();
    }

    /**
     * One row: position 0 is masked (its ratio of e^10 must not matter), positions 1..3 are generated with
     * the given ratios to their behaviour log-probs.
     */
    record Case(BatchTensors batch, NDArray logp) {
    }

    static Case oneRow(float advantage, double... ratios) {
        float[] behaviour = {-10f, (float) Math.log(0.2), (float) Math.log(0.4), (float) Math.log(0.5)};
        float[] mask = {0, 1, 1, 1};
        TrainingSequence seq = new TrainingSequence(new int[4], new int[4], mask, behaviour, new int[] {-1, 0, 0, 0}, 3);
        BatchTensors batch = PaddedBatch.of(List.of(new BatchRow(seq, advantage, 1f / 3))).toTensors(manager);
        float[] logp = new float[4];
        logp[0] = 0f; // masked position with ratio e^10: it must not count anywhere
        for (int i = 1; i < 4; i++) {
            logp[i] = behaviour[i] + (float) Math.log(ratios[i - 1]);
        }
        NDArray lp = manager.create(logp, new Shape(1, 4));
        return new Case(batch, lp);
    }

    static LossTerm<GrpoLoss.Stats> lossWithGradient(GrpoConfig config, Case c, NDArray reference) {
        c.logp().setRequiresGradient(true);
        try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
            LossTerm<GrpoLoss.Stats> term = new GrpoLoss(config).compute(new TokenScores(c.logp(), c.logp().zerosLike()), reference, c.batch());
            gc.backward(term.loss());
            return term;
        }
    }

    @Test
    void positiveAdvantageClipsHighRatiosOnly() {
        Case c = oneRow(1f, 1.5, 0.5, 1.0);
        LossTerm<GrpoLoss.Stats> t = lossWithGradient(GrpoConfig.defaults(), c, null);
        assertEquals(-(1.28 + 0.5 + 1.0) / 3, t.loss().getFloat(), 1e-5);
        assertEquals(1, t.stats().clippedHigh());
        assertEquals(0, t.stats().clippedLow());
        assertEquals(3, t.stats().tokens());
        assertEquals((1.5 + 0.5 + 1.0) / 3, t.stats().meanRatio(), 1e-5);
        // d/dlogp of -r*A/3 is -r/3 where unclipped; the clipped token has no gradient
        assertArrayEquals(new float[] {0f, 0f, -0.5f / 3, -1f / 3}, c.logp().getGradient().toFloatArray(), 1e-5f);
    }

    @Test
    void negativeAdvantageClipsLowRatiosAndCapsStaleOnes() {
        Case c = oneRow(-1f, 0.5, 1.5, 3.0);
        LossTerm<GrpoLoss.Stats> t = lossWithGradient(GrpoConfig.defaults(), c, null);
        // 0.5 -> clipped to 0.8; 1.5 -> unclipped; 3.0 -> above the cap 2.0, counted at 2.0
        assertEquals((0.8 + 1.5 + 2.0) / 3, t.loss().getFloat(), 1e-5);
        assertEquals(1, t.stats().clippedLow());
        assertEquals(1, t.stats().capped());
        // the capped token keeps a bounded push: gradient weight C = 2, not its ratio 3 and not 0
        assertArrayEquals(new float[] {0f, 0f, 1.5f / 3, 2f / 3}, c.logp().getGradient().toFloatArray(), 1e-5f);
    }

    @Test
    void klPenaltyUsesTheK3Estimator() {
        Case c = oneRow(0f, 1.0, 1.0, 1.0);
        NDArray reference = c.logp().add(manager.create(new float[] {0f, 0.5f, 0f, -0.5f}, new Shape(1, 4)));
        LossTerm<GrpoLoss.Stats> t = lossWithGradient(GrpoConfig.defaults().withBeta(0.1), c, reference);
        double k3Plus = Math.exp(0.5) - 0.5 - 1;
        double k3Minus = Math.exp(-0.5) + 0.5 - 1;
        assertEquals(0.1 * (k3Plus + k3Minus) / 3, t.loss().getFloat(), 1e-6);
        assertEquals((k3Plus + k3Minus) / 3, t.stats().meanKl(), 1e-6);
        // d k3 / d logp = 1 - exp(ref - logp)
        assertArrayEquals(new float[] {0f, (float) (0.1 * (1 - Math.exp(0.5)) / 3), 0f, (float) (0.1 * (1 - Math.exp(-0.5)) / 3)},
                c.logp().getGradient().toFloatArray(), 1e-6f);
    }

    @Test
    void currentPolicyBaselineIgnoresBehaviour() {
        Case c = oneRow(1f, 3.0, 3.0, 3.0);
        LossTerm<GrpoLoss.Stats> t = lossWithGradient(GrpoConfig.defaults().withRatioBaseline(GrpoConfig.RatioBaseline.CURRENT_POLICY), c, null);
        assertEquals(-1.0, t.loss().getFloat(), 1e-6);
        assertEquals(1.0, t.stats().meanRatio(), 1e-6);
    }
}
