package dev.toolcoach.cluster.protocol;

import java.util.List;
import java.util.Objects;

/**
 * How a flattened adapter's floats map back to PEFT-named tensors, plus its LoRA hyper-parameters: the part
 * of an adapter that is not numbers. Tensors are laid out one after another in this order.
 */
public record AdapterLayout(int rank, float alpha, float dropout, List<String> targets, List<Tensor> tensors)
        implements KryoSerializable {

    /** One tensor's PEFT name and shape. */
    public record Tensor(String name, long[] shape) {
        public Tensor {
            Objects.requireNonNull(name, "name");
            shape = shape.clone();
        }
    }

    public AdapterLayout {
        targets = List.copyOf(targets);
        tensors = List.copyOf(tensors);
    }

    /** Floats of all tensors together: the length of the flattened adapter. */
    public long totalFloats() {
        long total = 0;
        for (Tensor t : tensors) {
            long n = 1;
            for (long d : t.shape()) {
                n *= d;
            }
            total += n;
        }
        return total;
    }
}
