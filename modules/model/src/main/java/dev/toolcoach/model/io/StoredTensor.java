package dev.toolcoach.model.io;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Where one checkpoint tensor's values are on disk: its file, the byte offset of its first value, its dtype and
 * shape, and optionally the order its rows are stored in. Nothing is read until a {@link TensorReader} reads it, so a
 * model is located and checked whole before any weight is loaded.
 *
 * @param sourceRow null when rows are stored in order; otherwise maps a row of the tensor to the stored row
 *                  (llama2.c's interleaved RoPE rows, read in Hugging Face's rotate-half order)
 */
public record StoredTensor(Path file, String name, Dtype dtype, long[] shape, long offset, IntUnaryOperator sourceRow) {

    /** The stored number formats, each decoded to f32 in Java: DJL's PyTorch engine aborts the JVM on bf16. */
    public enum Dtype {
        F32(4), F16(2), BF16(2);

        private final int width;

        Dtype(int width) {
            this.width = width;
        }

        public int width() {
            return width;
        }
    }

    public long numel() {
        return HostTensor.numel(shape);
    }

    /** Rows as the device holds them: the first dimension (1 for a vector). */
    public long rows() {
        return shape.length < 2 ? 1 : shape[0];
    }

    /** Values per row. */
    public long cols() {
        return numel() / Math.max(1, rows());
    }

    public long bytes() {
        return numel() * dtype.width();
    }

    public boolean hasShape(long... expected) {
        return Arrays.equals(shape, expected);
    }

    /** Rows {@code [from, from + count)} as a tensor of their own (a fused checkpoint projection split on load). */
    public StoredTensor rows(long from, long count, String newName) {
        if (sourceRow != null) {
            throw new IllegalStateException("tensor '" + name + "' has its rows reordered and cannot be sliced");
        }
        long[] s = shape.clone();
        s[0] = count;
        return new StoredTensor(file, newName, dtype, s, offset + from * cols() * dtype.width(), null);
    }
}
