package dev.toolcoach.learn.optim;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.io.HostTensor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** AdamW against the update rule written out in doubles, and global-norm clipping by hand. */
class AdamWTest {
    static NDManager manager;

    @BeforeAll
    static void open() {
        manager = NDManager.newBaseManager();
    }

    @AfterAll
    static void close() {
        manager.close();
    }

    /** Sets the gradient of {@code p} to {@code g} by back-propagating sum(p * g). */
    static void setGradient(NDArray p, float[] g) {
        try (var gc = Engine.getInstance().newGradientCollector()) {
            gc.backward(p.mul(manager.create(g)).sum());
        }
    }

    @Test
    void threeStepsMatchTheReferenceRule() {
        NDArray p = manager.create(new float[] {1f, -2f});
        p.setRequiresGradient(true);
        List<TrainableParameter> params = List.of(new TrainableParameter("p", p));
        AdamWConfig c = new AdamWConfig(0.9, 0.99, 1e-8, 0.1);
        double[] x = {1, -2};
        double[] m = new double[2];
        double[] v = new double[2];
        float[][] grads = {{0.5f, -1f}, {0.1f, 0.3f}, {-0.2f, 0.2f}};
        double lr = 0.01;
        try (AdamW opt = new AdamW(c, params, manager)) {
            for (int t = 1; t <= 3; t++) {
                setGradient(p, grads[t - 1]);
                opt.step(lr);
                GradientClipping.zeroGradients(params);
                for (int i = 0; i < 2; i++) {
                    double g = grads[t - 1][i];
                    m[i] = 0.9 * m[i] + 0.1 * g;
                    v[i] = 0.99 * v[i] + 0.01 * g * g;
                    x[i] *= 1 - lr * 0.1;
                    x[i] -= lr * (m[i] / (1 - Math.pow(0.9, t))) / (Math.sqrt(v[i] / (1 - Math.pow(0.99, t))) + 1e-8);
                }
            }
            assertArrayEquals(new float[] {(float) x[0], (float) x[1]}, p.toFloatArray(), 1e-6f);
            assertEquals(3, opt.steps());
            Map<String, HostTensor> state = opt.state();
            assertArrayEquals(new float[] {(float) m[0], (float) m[1]}, state.get("m/p").data(), 1e-6f);
        }
    }

    @Test
    void clippingScalesToTheGlobalNorm() {
        NDArray a = manager.create(new float[] {3f});
        NDArray b = manager.create(new float[] {4f});
        a.setRequiresGradient(true);
        b.setRequiresGradient(true);
        List<TrainableParameter> params = List.of(new TrainableParameter("a", a), new TrainableParameter("b", b));
        setGradient(a, new float[] {3f});
        setGradient(b, new float[] {4f});
        assertEquals(5.0, GradientClipping.clipGlobalNorm(params, 1.0, manager), 1e-6);
        assertEquals(0.6, a.getGradient().getFloat(), 1e-5);
        assertEquals(0.8, b.getGradient().getFloat(), 1e-5);
        GradientClipping.zeroGradients(params);
        assertEquals(0.0, GradientClipping.clipGlobalNorm(params, 1.0, manager), 0.0);
    }

    @Test
    void aNonFiniteGradientIsReportedAndZeroingClearsIt() {
        NDArray a = manager.create(new float[] {1f, 2f});
        a.setRequiresGradient(true);
        List<TrainableParameter> params = List.of(new TrainableParameter("a", a));
        setGradient(a, new float[] {Float.NaN, 1f});
        assertTrue(Double.isNaN(GradientClipping.clipGlobalNorm(params, 1.0, manager)));
        GradientClipping.zeroGradients(params);
        assertArrayEquals(new float[] {0f, 0f}, a.getGradient().toFloatArray());
    }
}
