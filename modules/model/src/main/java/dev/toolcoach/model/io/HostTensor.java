package dev.toolcoach.model.io;

import java.util.Arrays;

/** A named float tensor in host memory, row-major; the exchange format between files and the device. */
public record HostTensor(long[] shape, float[] data) {
    public HostTensor {
        if (numel(shape) != data.length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " needs " + numel(shape)
                    + " values, got " + data.length);
        }
    }

    public static long numel(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    public boolean hasShape(long... expected) {
        return Arrays.equals(shape, expected);
    }
}
