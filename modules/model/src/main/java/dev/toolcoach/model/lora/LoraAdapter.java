package dev.toolcoach.model.lora;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.norm.Dropout;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostMatrices;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.nn.ScopedConstant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * LoRA adapter matrices on the device. A is stored as [in, r] and B as [r, out] so the delta is
 * {@code x.matMul(a).matMul(b)}; the base weights are never touched, so the same model with the adapter
 * left out of a forward call is the frozen reference policy.
 */
public final class LoraAdapter implements AutoCloseable {
    private final LoraConfig config;
    private final ModelConfig model;
    private final NDManager manager;
    private final List<Map<String, Pair>> layers;
    private volatile int version;

    /** One target's matrices. */
    public record Pair(NDArray a, NDArray b) {
    }

    private LoraAdapter(LoraConfig config, ModelConfig model, NDManager manager, List<Map<String, Pair>> layers, int version) {
        this.config = config;
        this.model = model;
        this.manager = manager;
        this.layers = layers;
        this.version = version;
    }

    /** PEFT's init: A uniform in ±1/sqrt(in) (kaiming-uniform with a=sqrt 5), B zero, so a fresh adapter changes nothing. */
    public static LoraAdapter create(LoraConfig config, ModelConfig model, NDManager parent, long seed) {
        Random rnd = new Random(seed);
        Map<String, HostTensor> t = new LinkedHashMap<>();
        for (int l = 0; l < model.nLayers(); l++) {
            for (String target : config.orderedTargets()) {
                int[] io = inOut(model, target);
                float bound = (float) (1.0 / Math.sqrt(io[0]));
                float[] a = new float[config.r() * io[0]];
                for (int i = 0; i < a.length; i++) {
                    a[i] = (rnd.nextFloat() * 2 - 1) * bound;
                }
                t.put(pefName(l, target, "A"), new HostTensor(new long[] {config.r(), io[0]}, a));
                t.put(pefName(l, target, "B"), new HostTensor(new long[] {io[1], config.r()}, new float[io[1] * config.r()]));
            }
        }
        return fromWeights(new AdapterWeights(config, 0, t), model, parent);
    }

    /**
     * Device copy of host adapter weights.
     *
     * @throws IllegalArgumentException naming a missing tensor or a shape that does not fit the model
     */
    public static LoraAdapter fromWeights(AdapterWeights w, ModelConfig model, NDManager parent) {
        LoraConfig c = w.config();
        for (int l = 0; l < model.nLayers(); l++) {
            for (String target : c.orderedTargets()) {
                int[] io = inOut(model, target);
                check(w, pefName(l, target, "A"), c.r(), io[0]);
                check(w, pefName(l, target, "B"), io[1], c.r());
            }
        }
        NDManager manager = parent.newSubManager();
        List<Map<String, Pair>> layers = new ArrayList<>();
        for (int l = 0; l < model.nLayers(); l++) {
            Map<String, Pair> m = new HashMap<>();
            for (String target : c.orderedTargets()) {
                HostTensor a = w.tensors().get(pefName(l, target, "A"));
                HostTensor b = w.tensors().get(pefName(l, target, "B"));
                m.put(target, new Pair(device(manager, HostMatrices.transpose(a)), device(manager, HostMatrices.transpose(b))));
            }
            layers.add(Map.copyOf(m));
        }
        return new LoraAdapter(c, model, manager, List.copyOf(layers), w.version());
    }

    private static void check(AdapterWeights w, String name, long rows, long cols) {
        HostTensor t = w.tensors().get(name);
        if (t == null) {
            throw new IllegalArgumentException("adapter tensor '" + name + "' is missing");
        }
        if (!t.hasShape(rows, cols)) {
            throw new IllegalArgumentException("adapter tensor '" + name + "' has shape " + Arrays.toString(t.shape())
                    + " but the model needs [" + rows + ", " + cols + "]");
        }
    }

    /** PEFT's tensor name, e.g. base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight. */
    public static String pefName(int layer, String target, String aOrB) {
        return "base_model.model." + HfNames.projection(layer, target) + ".lora_" + aOrB + ".weight";
    }

    /** [in, out] of a projection. */
    public static int[] inOut(ModelConfig m, String target) {
        return switch (target) {
            case "q_proj" -> new int[] {m.dim(), m.qDim()};
            case "o_proj" -> new int[] {m.qDim(), m.dim()};
            case "k_proj", "v_proj" -> new int[] {m.dim(), m.kvDim()};
            case "gate_proj", "up_proj" -> new int[] {m.dim(), m.hiddenDim()};
            case "down_proj" -> new int[] {m.hiddenDim(), m.dim()};
            default -> throw new IllegalArgumentException("unknown projection " + target);
        };
    }

    public LoraConfig config() {
        return config;
    }

    public int version() {
        return version;
    }

    public void setVersion(int version) {
        this.version = version;
    }

    public boolean targets(String projection) {
        return config.targets().contains(projection);
    }

    /**
     * The adapter's contribution for one projection: scale * dropout(x) A B. Dropout is active only when training.
     * The first operand is {@code x}, so the result lives in x's (per-call) manager.
     */
    public NDArray delta(int layer, String target, NDArray x, boolean training) {
        Pair p = layers.get(layer).get(target);
        NDArray in = training && config.dropout() > 0 ? Dropout.dropout(x, config.dropout(), true).singletonOrThrow() : x;
        NDArray delta = in.matMul(p.a()).matMul(p.b());
        return delta.mul(ScopedConstant.like(delta, config.scale()));
    }

    /** scale * A B [in, out] of one target: what merging adds to the base projection; lives in {@code scope}. */
    public NDArray weightDelta(int layer, String target, NDManager scope) {
        Pair p = layers.get(layer).get(target);
        NDArray delta = p.a().matMul(p.b());
        delta.attach(scope); // an op's result joins its receiver's manager: the adapter's, which lives on
        return delta.mul(ScopedConstant.like(delta, config.scale()));
    }

    /** The arrays an optimiser updates, in a fixed order (layer, then canonical target, A before B). */
    public List<NDArray> parameters() {
        List<NDArray> out = new ArrayList<>();
        for (Map<String, Pair> layer : layers) {
            for (String target : config.orderedTargets()) {
                out.add(layer.get(target).a());
                out.add(layer.get(target).b());
            }
        }
        return out;
    }

    /** Host copy of the current values in PEFT layout. */
    public AdapterWeights snapshot() {
        Map<String, HostTensor> t = new LinkedHashMap<>();
        for (int l = 0; l < layers.size(); l++) {
            for (String target : config.orderedTargets()) {
                Pair p = layers.get(l).get(target);
                t.put(pefName(l, target, "A"), transposedHost(p.a()));
                t.put(pefName(l, target, "B"), transposedHost(p.b()));
            }
        }
        return new AdapterWeights(config, version, t);
    }

    /** Overwrites the values in place (same config), keeping the arrays an optimiser holds. */
    public void restore(AdapterWeights w) {
        if (!w.config().equals(config)) {
            throw new IllegalArgumentException("adapter config " + w.config() + " differs from this adapter's " + config);
        }
        for (int l = 0; l < layers.size(); l++) {
            for (String target : config.orderedTargets()) {
                int[] io = inOut(model, target);
                check(w, pefName(l, target, "A"), config.r(), io[0]);
                check(w, pefName(l, target, "B"), io[1], config.r());
            }
        }
        for (int l = 0; l < layers.size(); l++) {
            for (String target : config.orderedTargets()) {
                Pair p = layers.get(l).get(target);
                p.a().set(HostMatrices.transpose(w.tensors().get(pefName(l, target, "A"))).data());
                p.b().set(HostMatrices.transpose(w.tensors().get(pefName(l, target, "B"))).data());
            }
        }
        version = w.version();
    }

    /** Marks every parameter as trainable (or not) for DJL's GradientCollector. */
    public void setTrainable(boolean trainable) {
        parameters().forEach(p -> p.setRequiresGradient(trainable));
    }

    private static HostTensor transposedHost(NDArray a) {
        return HostMatrices.transpose(new HostTensor(a.getShape().getShape(), a.toFloatArray()));
    }

    private static NDArray device(NDManager m, HostTensor t) {
        return m.create(t.data(), new Shape(t.shape()));
    }

    @Override
    public void close() {
        manager.close();
    }
}
