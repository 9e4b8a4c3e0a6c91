package dev.toolcoach.learn.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Dynamic loss scaling: on for an f16 base only; halves on overflow (never below 1), doubles after a long finite run. */
class LossScalerTest {

    @Test
    void f32AndBf16BasesAreNotScaled() {
        try (NDManager m = NDManager.newBaseManager()) {
            for (DataType type : new DataType[] {DataType.FLOAT32, DataType.BFLOAT16}) {
                LossScaler s = LossScaler.forBase(type);
                NDArray loss = m.create(3f);
                assertSame(loss, s.scaled(loss));
                s.update(false);
                assertEquals(1, s.scale());
            }
        }
    }

    @Test
    void anF16BaseScalesTheLossAndTheGradientsBackAndAdaptsTheScale() {
        LossScaler s = LossScaler.forBase(DataType.FLOAT16);
        assertEquals(LossScaler.INITIAL, s.scale());
        try (NDManager m = NDManager.newBaseManager()) {
            assertEquals(3 * LossScaler.INITIAL, s.scaled(m.create(3f)).getFloat(), 1e-3);
            NDArray w = m.create(new float[] {1f, 2f});
            w.setRequiresGradient(true);
            try (var collector = ai.djl.engine.Engine.getInstance().newGradientCollector()) {
                collector.backward(s.scaled(w.mul(w).sum())); // d/dw = 2w, scaled
            }
            s.unscale(List.of(new TrainableParameter("w", w)));
            assertArrayEquals(new float[] {2f, 4f}, w.getGradient().toFloatArray(), 1e-5f);
        }
        s.update(false);
        assertEquals(LossScaler.INITIAL / 2, s.scale());
        for (int i = 0; i < LossScaler.GROWTH_INTERVAL; i++) {
            s.update(true);
        }
        assertEquals(LossScaler.INITIAL, s.scale());
        for (int i = 0; i < 40; i++) {
            s.update(false);
        }
        assertEquals(1, s.scale());
    }
}
