package dev.toolcoach.learn.loss;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.learn.batch.PaddedBatch;
import dev.toolcoach.learn.batch.TrainingSequence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** (b) DPO values by hand: chosen and rejected of two generated tokens each. */
class DpoLossTest {
    static NDManager manager;

    @BeforeAll
    static void open() {
        manager = NDManager.newBaseManager();
    }

    @AfterAll
    static void close() {
        manager.close();
    }

    static BatchTensors pair() {
        TrainingSequence s = new TrainingSequence(new int[3], new int[3], new float[] {0, 1, 1}, new float[3], new int[3], 2);
        return PaddedBatch.of(List.of(new BatchRow(s, 0, 1f), new BatchRow(s, 0, 1f))).toTensors(manager);
    }

    // policy: chosen sums to -1.0, rejected to -2.0; reference: both -1.5, so h = 0.5 - (-0.5) = 1
    static NDArray policy() {
        return manager.create(new float[] {-9, -0.5f, -0.5f, -9, -1f, -1f}, new Shape(2, 3));
    }

    static NDArray reference() {
        return manager.create(new float[] {-3, -0.75f, -0.75f, -3, -0.75f, -0.75f}, new Shape(2, 3));
    }

    static double logSigmoid(double x) {
        return -Math.log1p(Math.exp(-x));
    }

    @Test
    void sigmoidLoss() {
        LossTerm<DpoLoss.Stats> t = new DpoLoss(new DpoConfig(0.1, 0, DpoConfig.Variant.SIGMOID, DpoConfig.PairMode.ALL_PAIRS, 0))
                .compute(policy(), reference(), pair());
        assertEquals(-logSigmoid(0.1), t.loss().getFloat(), 1e-6);
        assertEquals(1, t.stats().correct());
        assertEquals(0.1, t.stats().meanMargin(), 1e-6);
    }

    @Test
    void labelSmoothingMixesInTheFlippedLabel() {
        LossTerm<DpoLoss.Stats> t = new DpoLoss(new DpoConfig(0.1, 0.1, DpoConfig.Variant.SIGMOID, DpoConfig.PairMode.ALL_PAIRS, 0))
                .compute(policy(), reference(), pair());
        assertEquals(-0.9 * logSigmoid(0.1) - 0.1 * logSigmoid(-0.1), t.loss().getFloat(), 1e-6);
    }

    @Test
    void ipoUsesLengthAveragedLogprobs() {
        LossTerm<DpoLoss.Stats> t = new DpoLoss(new DpoConfig(0.1, 0, DpoConfig.Variant.IPO, DpoConfig.PairMode.ALL_PAIRS, 0))
                .compute(policy(), reference(), pair());
        double h = (-0.5 - -0.75) - (-1.0 - -0.75); // 0.5 on per-token means
        assertEquals(Math.pow(h - 1 / (2 * 0.1), 2), t.loss().getFloat(), 1e-5);
    }
}
