package dev.toolcoach.model.nn;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;

/**
 * PyTorch's {@code torch.no_grad()} for a block, for in-place updates of trainable weights. Grad mode
 * is per thread and on by default on a new thread; DJL's gradient collector only restores the mode it
 * found, so an optimiser step on a fresh thread (a learner's training thread) would otherwise fail with
 * "a leaf Variable that requires grad is being used in an in-place operation".
 */
public final class NoGrad implements AutoCloseable {
    private final boolean previous;

    private NoGrad() {
        previous = JniUtils.isGradMode();
        JniUtils.setGradMode(false);
    }

    public static NoGrad enter() {
        Engine.getEngine("PyTorch"); // loads the native library first
        return new NoGrad();
    }

    @Override
    public void close() {
        JniUtils.setGradMode(previous);
    }
}
