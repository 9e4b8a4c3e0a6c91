package dev.toolcoach.model;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;

/**
 * Intra-op thread count of the PyTorch engine. On these small models one thread is fastest at batch 1 and two
 * pay off at large batches, so it is a knob rather than a constant. Under OpenMP the setting belongs to the
 * calling thread: call it on the thread that runs the forward passes.
 */
public final class OpThreads {
    private OpThreads() {
    }

    public static void setIntraOp(int threads) {
        if (threads <= 0) {
            throw new IllegalArgumentException("thread count must be positive, got " + threads);
        }
        Engine.getEngine("PyTorch"); // loads the native library first
        JniUtils.setNumThreads(threads);
    }

    public static int intraOp() {
        Engine.getEngine("PyTorch");
        return JniUtils.getNumThreads();
    }
}
