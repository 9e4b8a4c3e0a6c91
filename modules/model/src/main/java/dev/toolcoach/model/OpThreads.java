package dev.toolcoach.model;

import ai.djl.engine.Engine;
import ai.djl.pytorch.jni.JniUtils;

import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

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

    /**
     * Runs {@code work} on this thread with {@code threads} intra-op threads, then restores the count it found.
     * Training steps use one: on a busy 2-core machine two OpenMP threads spin against each other and a step of
     * the task-sized models took 5.9 s instead of 0.33 s.
     */
    public static <T> T with(int threads, Supplier<T> work) {
        int before = intraOp();
        setIntraOp(threads);
        try {
            return work.get();
        } finally {
            JniUtils.setNumThreads(before);
        }
    }

    /** Threads that run their tasks with {@code threads} intra-op threads. */
    public static ThreadFactory threadFactory(String name, int threads) {
        return task -> new Thread(() -> {
            setIntraOp(threads);
            task.run();
        }, name);
    }

    public static int intraOp() {
        Engine.getEngine("PyTorch");
        return JniUtils.getNumThreads();
    }
}
