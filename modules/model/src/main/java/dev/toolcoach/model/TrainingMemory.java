package dev.toolcoach.model;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Whether trained parameters fit this machine: each holds its f32 weight, its gradient and AdamW's two moments, all
 * outside the Java heap (PyTorch's memory), so {@code -Xmx} bounds none of it. Checked where a request names what is
 * trained (a model shape, a LoRA rank), before anything is allocated.
 */
public final class TrainingMemory {

    /** f32 weight, gradient and AdamW's two moments. */
    public static final int BYTES_PER_TRAINED_PARAMETER = 16;
    private static final double GIB = 1024.0 * 1024 * 1024;

    private TrainingMemory() {
    }

    /**
     * @param what        what the parameters are, for the message (e.g. {@code a LoRA adapter of rank 4096})
     * @throws IllegalArgumentException naming what does not fit, its parameters and the memory it would need
     */
    public static void requireFits(String what, long trainedParameters) {
        long bytes = trainedParameters * BYTES_PER_TRAINED_PARAMETER;
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
        if (trainedParameters < 0 || bytes / BYTES_PER_TRAINED_PARAMETER != trainedParameters || bytes > memory) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s has %,d parameters: training it needs about %.1f GiB, "
                    + "this machine has %.1f GiB", what, trainedParameters, trainedParameters * (double) BYTES_PER_TRAINED_PARAMETER / GIB,
                    memory / GIB));
        }
    }
}
