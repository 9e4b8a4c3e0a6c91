package dev.toolcoach.model.nn;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The constant of {@code x * c} must still be c when backward reads it, even after the JVM has
 * collected garbage and reused direct memory in between (DJL's {@code x.mul(0.5)} fails this: its
 * scalar's buffer is freed right after the forward, and the gradient comes out as whatever was
 * written there next).
 */
class ScopedConstantTest {
    @Test
    void backwardSeesTheConstantAfterDirectMemoryIsReused() {
        try (NDManager manager = NDManager.newBaseManager()) {
            for (int trial = 0; trial < 5; trial++) {
                NDArray x = manager.create(new float[] {1f, 2f, 3f});
                x.setRequiresGradient(true);
                try (GradientCollector collector = Engine.getInstance().newGradientCollector()) {
                    NDArray y = x.mul(ScopedConstant.like(x, 0.5)).sum();
                    List<ByteBuffer> churn = reuseFreedDirectMemory();
                    collector.backward(y);
                    assertArrayEquals(new float[] {0.5f, 0.5f, 0.5f}, x.getGradient().toFloatArray(),
                            "trial " + trial + " after " + churn.size() + " direct buffers");
                }
            }
        }
    }

    /** Lets the cleaner free unreachable direct buffers, then takes their memory back with other values. */
    private static List<ByteBuffer> reuseFreedDirectMemory() {
        System.gc();
        List<ByteBuffer> churn = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            churn.add(ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder()).putFloat(0, 1e30f));
        }
        return churn;
    }
}
