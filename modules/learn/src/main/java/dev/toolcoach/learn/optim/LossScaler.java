package dev.toolcoach.learn.optim;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.model.nn.ScopedConstant;

import java.util.List;

/**
 * Dynamic loss scaling for training over an f16 base, as PyTorch's {@code GradScaler}: the loss is multiplied by a
 * large factor before the backward so that small gradients survive f16's range on their way through the base, the
 * adapter's (f32) gradients are divided by it again before clipping, and the factor halves after an update whose
 * gradients overflowed (that update is skipped, as any non-finite one) and doubles after {@value #GROWTH_INTERVAL}
 * finite ones. f32 and bf16 (f32's exponent range) need none: there the scale is 1 and nothing is touched.
 */
public final class LossScaler {
    static final double INITIAL = 65536;
    static final int GROWTH_INTERVAL = 2000;

    private final boolean enabled;
    private double scale;
    private int finiteSteps;

    private LossScaler(boolean enabled) {
        this.enabled = enabled;
        this.scale = enabled ? INITIAL : 1;
    }

    /** Scaling where the base computes in f16, none otherwise. */
    public static LossScaler forBase(DataType baseType) {
        return new LossScaler(baseType == DataType.FLOAT16);
    }

    public double scale() {
        return scale;
    }

    /** The loss to differentiate: {@code loss} times the scale (itself when disabled). */
    public NDArray scaled(NDArray loss) {
        return enabled ? loss.mul(ScopedConstant.like(loss, scale)) : loss;
    }

    /** Divides the accumulated gradients by the scale, before their norm is taken and clipped. */
    public void unscale(List<TrainableParameter> parameters) {
        if (!enabled) {
            return;
        }
        for (TrainableParameter p : parameters) {
            try (NDArray g = p.value().getGradient()) {
                g.muli(1 / scale);
            }
        }
    }

    /** After each update decision: halves the scale when the gradients were not finite, doubles it after a long finite run. */
    public void update(boolean finite) {
        if (!enabled) {
            return;
        }
        if (!finite) {
            scale = Math.max(1, scale / 2);
            finiteSteps = 0;
        } else if (++finiteSteps == GROWTH_INTERVAL) {
            scale *= 2;
            finiteSteps = 0;
        }
    }
}
