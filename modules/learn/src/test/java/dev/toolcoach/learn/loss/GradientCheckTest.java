package dev.toolcoach.learn.loss;

import dev.toolcoach.model.TokenScores;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.learn.batch.PaddedBatch;
import dev.toolcoach.learn.batch.TrainingSequence;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * (a) Each loss's autograd gradient with respect to the logits against central finite differences,
 * in float64 on a 2 x 3 x 5 batch. Capped GRPO tokens are left out by construction: their gradient
 * is deliberately not the derivative of their value (see GrpoLossTest for them).
 */
class GradientCheckTest {
    static final int ROWS = 2;
    static final int LEN = 3;
    static final int VOCAB = 5;
    static NDManager manager;

    @BeforeAll
    static void open() {
        manager = NDManager.newBaseManager();
    }

    @AfterAll
    static void close() {
        manager.close();
    }

    static double[] randomLogits(long seed) {
        SeededRandom r = new SeededRandom(seed);
        double[] v = new double[ROWS * LEN * VOCAB];
        for (int i = 0; i < v.length; i++) v[i] = r.nextDouble() * 2 - 1;
        return v;
    }

    /** Rows of targets with behaviour log-probs near the current ones (ratios within the clip range or just outside). */
    static BatchTensors batch(double[] logits, float[] advantages, float[] logShifts) {
        int[][] targets = {{1, 2, 3}, {4, 0, 2}};
        float[][] masks = {{1, 1, 0}, {0, 1, 1}};
        List<BatchRow> rows = new ArrayList<>();
        for (int b = 0; b < ROWS; b++) {
            float[] behaviour = new float[LEN];
            for (int t = 0; t < LEN; t++) {
                behaviour[t] = (float) (logSoftmaxAt(logits, b, t, targets[b][t]) - logShifts[b * LEN + t]);
            }
            rows.add(new BatchRow(new TrainingSequence(new int[LEN], targets[b], masks[b], behaviour, new int[LEN], 2),
                    advantages[b], 0.25f));
        }
        return PaddedBatch.of(rows).toTensors(manager);
    }

    static double logSoftmaxAt(double[] logits, int b, int t, int token) {
        int off = (b * LEN + t) * VOCAB;
        double max = Double.NEGATIVE_INFINITY;
        for (int v = 0; v < VOCAB; v++) max = Math.max(max, logits[off + v]);
        double sum = 0;
        for (int v = 0; v < VOCAB; v++) sum += Math.exp(logits[off + v] - max);
        return logits[off + token] - max - Math.log(sum);
    }

    static void check(double[] logits, Function<NDArray, NDArray> loss) {
        NDArray x = manager.create(logits, new Shape(ROWS, LEN, VOCAB));
        x.setRequiresGradient(true);
        double[] analytic;
        try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
            gc.backward(loss.apply(x));
            analytic = x.getGradient().toType(DataType.FLOAT64, false).toDoubleArray();
        }
        double h = 1e-5;
        for (int i = 0; i < logits.length; i++) {
            double[] plus = logits.clone();
            double[] minus = logits.clone();
            plus[i] += h;
            minus[i] -= h;
            double numeric = (value(plus, loss) - value(minus, loss)) / (2 * h);
            assertEquals(numeric, analytic[i], 1e-6, "d loss / d logit " + i);
        }
    }

    static double value(double[] logits, Function<NDArray, NDArray> loss) {
        return loss.apply(manager.create(logits, new Shape(ROWS, LEN, VOCAB))).toType(DataType.FLOAT64, false).getDouble();
    }

    @Test
    void grpoWithKlMatchesFiniteDifferences() {
        double[] logits = randomLogits(1);
        // log-ratio shifts: inside the clip range, and beyond it on both sides (no token above the cap of 2)
        BatchTensors batch = batch(logits, new float[] {0.7f, -1.2f}, new float[] {0.1f, -0.4f, 0f, 0f, 0.5f, -0.05f});
        double[] refLogits = randomLogits(2);
        GrpoLoss loss = new GrpoLoss(GrpoConfig.defaults().withBeta(0.04));
        check(logits, x -> {
            NDArray ref = TokenScores.fromLogits(manager.create(refLogits, new Shape(ROWS, LEN, VOCAB)), batch.targets()).logprobs();
            return loss.compute(TokenScores.fromLogits(x, batch.targets()), ref, batch).loss();
        });
    }

    @Test
    void grpoWithAnEntropyBonusMatchesFiniteDifferences() {
        double[] logits = randomLogits(6);
        BatchTensors batch = batch(logits, new float[] {0.7f, -1.2f}, new float[] {0.1f, -0.4f, 0f, 0f, 0.5f, -0.05f});
        GrpoLoss loss = new GrpoLoss(GrpoConfig.defaults().withEntropyBonus(0.3));
        check(logits, x -> loss.compute(TokenScores.fromLogits(x, batch.targets(), true), null, batch).loss());
    }

    @Test
    void anEntropyBonusAloneRaisesTheEntropyOfTheTrainedPositions() {
        double[] logits = randomLogits(7);
        BatchTensors batch = batch(logits, new float[] {0, 0}, new float[6]);
        GrpoLoss loss = new GrpoLoss(GrpoConfig.defaults().withEntropyBonus(1.0));
        NDArray x = manager.create(logits, new Shape(ROWS, LEN, VOCAB));
        x.setRequiresGradient(true);
        double[] gradient;
        try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
            gc.backward(loss.compute(TokenScores.fromLogits(x, batch.targets(), true), null, batch).loss());
            gradient = x.getGradient().toType(DataType.FLOAT64, false).toDoubleArray();
        }
        double[] stepped = logits.clone();
        for (int i = 0; i < stepped.length; i++) stepped[i] -= 0.5 * gradient[i];
        double before = maskedEntropy(logits, batch);
        double after = maskedEntropy(stepped, batch);
        // zero advantages: the policy term is flat, so a descent step moves the trained positions toward uniform
        assertTrue(after > before + 1e-3, before + " -> " + after);
    }

    private static double maskedEntropy(double[] logits, BatchTensors batch) {
        NDArray entropy = TokenScores.fromLogits(manager.create(logits, new Shape(ROWS, LEN, VOCAB)), batch.targets()).entropy();
        return entropy.mul(batch.mask().toType(DataType.FLOAT64, false)).sum().toType(DataType.FLOAT64, false).getDouble();
    }

    @Test
    void dpoSigmoidAndIpoMatchFiniteDifferences() {
        double[] logits = randomLogits(3);
        BatchTensors batch = batch(logits, new float[] {0, 0}, new float[6]);
        double[] refLogits = randomLogits(4);
        for (DpoConfig.Variant variant : DpoConfig.Variant.values()) {
            DpoLoss loss = new DpoLoss(new DpoConfig(0.3, 0.1, variant, DpoConfig.PairMode.ALL_PAIRS, 0));
            check(logits, x -> loss.compute(TokenScores.fromLogits(x, batch.targets()).logprobs(),
                    TokenScores.fromLogits(manager.create(refLogits, new Shape(ROWS, LEN, VOCAB)), batch.targets()).logprobs(),
                    batch).loss());
        }
    }

    @Test
    void sftMatchesFiniteDifferences() {
        double[] logits = randomLogits(5);
        BatchTensors batch = batch(logits, new float[] {0, 0}, new float[6]);
        check(logits, x -> new SftLoss().compute(TokenScores.fromLogits(x, batch.targets()), batch).loss());
    }
}
