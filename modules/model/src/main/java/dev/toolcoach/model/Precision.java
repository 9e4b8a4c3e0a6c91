package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.ndarray.types.DataType;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The type a frozen base computes in ({@code --precision}, config key {@value #CONFIG_KEY}): the base's weights and
 * activations and the KV cache; norms, softmax, the adapter's delta, the logits and the loss stay in f32, and an
 * adapter and its optimiser state are always f32 (mixed precision as Transformers + peft train). A base that is trained
 * whole (a from-scratch or distilled student) is f32 whatever this says.
 *
 * <p>Default ({@code auto}): f32 on the CPU, where PyTorch's 16-bit matmuls are slower than f32 (measured: this
 * package's package-info, "Precision"); bf16 on a GPU where the JNI is ToolCoach's build
 * ({@link TorchRuntime#BF16}): bf16 keeps f32's exponent range, so nothing overflows and no loss scaling is needed, at
 * f16's tensor-core speed and half f32's memory; f32 on a GPU with DJL's own JNI, which can do neither 16-bit type
 * under a trained adapter. f16 is offered for GPUs without bf16 (before Ampere), with dynamic loss scaling in the
 * learner.
 */
public enum Precision {
    F32("f32", DataType.FLOAT32),
    F16("f16", DataType.FLOAT16),
    BF16("bf16", DataType.BFLOAT16);

    /** The configuration key of nodes and commands (system property or HOCON). */
    public static final String CONFIG_KEY = "toolcoach.precision";
    /** The name that leaves the choice to the device. */
    public static final String AUTO = "auto";

    private final String label;
    private final DataType dataType;

    Precision(String label, DataType dataType) {
        this.label = label;
        this.dataType = dataType;
    }

    public String label() {
        return label;
    }

    public DataType dataType() {
        return dataType;
    }

    /**
     * The precision a name stands for; empty for {@value #AUTO}.
     *
     * @throws IllegalArgumentException naming the value when it is none of auto, f32, f16, bf16
     */
    public static Optional<Precision> parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        if (n.equals(AUTO)) {
            return Optional.empty();
        }
        for (Precision p : values()) {
            if (p.label.equals(n)) {
                return Optional.of(p);
            }
        }
        throw new IllegalArgumentException("unknown precision '" + name + "' (use auto, f32, f16 or bf16)");
    }

    /** {@value #AUTO}'s choice on {@code device} with a JNI of these {@link TorchRuntime#features()}. */
    public static Precision defaultFor(Device device, Set<String> jniFeatures) {
        return device.isGpu() && jniFeatures.contains(TorchRuntime.BF16) && jniFeatures.contains(TorchRuntime.CAST_GRADIENT) ? BF16 : F32;
    }

    /**
     * @throws IllegalArgumentException when a JNI with these features cannot train an adapter over a base of this type
     */
    public void requireSupport(Set<String> jniFeatures) {
        if (this == F32) {
            return;
        }
        String install = " needs ToolCoach's build of DJL's JNI (deploy/gpu/install-torch-jni.sh, then source its torch.env): ";
        if (this == BF16 && !jniFeatures.contains(TorchRuntime.BF16)) {
            throw new IllegalArgumentException("precision 'bf16'" + install + "DJL 0.35.1's own aborts the JVM on a bf16 tensor");
        }
        if (!jniFeatures.contains(TorchRuntime.CAST_GRADIENT)) {
            throw new IllegalArgumentException("precision '" + label + "'" + install
                    + "DJL 0.35.1's own casts drop the gradient, so an adapter over a base in " + label + " would not learn");
        }
    }

    @Override
    public String toString() {
        return label;
    }
}
