package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;

/**
 * A scalar tensor owned by the same manager as a given array, for constants on a differentiable path.
 *
 * <p>Why not {@code x.mul(2.0)}: DJL's PyTorch engine turns the number into a tensor over a Java direct
 * buffer ({@code from_blob}, not owned by PyTorch) and closes it as soon as the op returns. Autograd
 * saves that tensor for backward (mul, minimum, maximum, pow read it there), so backward reads memory
 * the JVM may already have freed and reused: rare, GC-timed garbage gradients (an infinite norm, or
 * two identical learners drifting apart). A constant owned by the manager of the array it combines with
 * lives until that manager closes, after backward.
 */
public final class ScopedConstant {
    private ScopedConstant() {
    }

    /** {@code value} as a scalar of {@code owner}'s type, owned by {@code owner}'s manager. */
    public static NDArray like(NDArray owner, double value) {
        return owner.getManager().create((float) value).toType(owner.getDataType(), false);
    }
}
