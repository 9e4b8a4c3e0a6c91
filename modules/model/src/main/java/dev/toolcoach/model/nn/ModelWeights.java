package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostMatrices;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.io.TensorReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * All base weights on the device, converted from (and back to) Hugging Face tensors ({@link HfNames} layout, rotate-half
 * RoPE).
 *
 * @param lmHead [dim, vocab], or null when the embedding is tied and doubles as the output head
 */
public record ModelWeights(NDArray embedding, List<LayerWeights> layers, NDArray finalNorm, NDArray lmHead) {

    /**
     * Builds device weights from HF-named host tensors, checking every name and shape against the config first,
     * so a mismatch fails before any device memory is used.
     *
     * @throws IllegalArgumentException naming the tensor and both shapes
     */
    public static ModelWeights fromHf(ModelConfig c, Map<String, HostTensor> t, NDManager manager) {
        validate(c, t);
        List<LayerWeights> layers = new ArrayList<>();
        for (int l = 0; l < c.nLayers(); l++) {
            NDArray bias = null;
            if (c.qkvBias()) {
                bias = manager.create(concat(bias(t, l, "q_proj"), bias(t, l, "k_proj"), bias(t, l, "v_proj")));
            }
            layers.add(new LayerWeights(
                    vector(manager, t.get(HfNames.layer(l, "input_layernorm.weight"))),
                    fusedTransposed(manager, proj(t, l, "q_proj"), proj(t, l, "k_proj"), proj(t, l, "v_proj")),
                    bias,
                    c.qkNorm() ? vector(manager, t.get(HfNames.layer(l, "self_attn.q_norm.weight"))) : null,
                    c.qkNorm() ? vector(manager, t.get(HfNames.layer(l, "self_attn.k_norm.weight"))) : null,
                    fusedTransposed(manager, proj(t, l, "o_proj")),
                    c.oBias() ? manager.create(bias(t, l, "o_proj")) : null,
                    vector(manager, t.get(HfNames.layer(l, "post_attention_layernorm.weight"))),
                    fusedTransposed(manager, proj(t, l, "gate_proj"), proj(t, l, "up_proj")),
                    fusedTransposed(manager, proj(t, l, "down_proj"))));
        }
        HostTensor emb = t.get(HfNames.EMBED);
        return new ModelWeights(manager.create(emb.data(), new Shape(emb.shape())), List.copyOf(layers),
                vector(manager, t.get(HfNames.FINAL_NORM)),
                c.tiedEmbeddings() ? null : fusedTransposed(manager, t.get(HfNames.LM_HEAD)));
    }

    /**
     * Streams located checkpoint tensors straight into device arrays, one block of rows at a time (read and decoded
     * into a small direct buffer, then copied into its place in the fused, transposed device array), so the Java heap
     * never holds a weight and the process never holds a second copy of the model. The values and layout are exactly
     * those of {@link #fromHf} on the same tensors read to the heap.
     *
     * @throws IllegalArgumentException naming a missing or misshapen tensor, before any device memory is used
     */
    public static ModelWeights load(ModelConfig c, Map<String, StoredTensor> t, NDManager manager, DataType dtype) {
        validate(c, t, StoredTensor::shape);
        try (TensorReader reader = new TensorReader()) {
            Streamed s = new Streamed(t, reader, manager, dtype);
            List<LayerWeights> layers = new ArrayList<>();
            for (int l = 0; l < c.nLayers(); l++) {
                NDArray bias = null;
                if (c.qkvBias()) {
                    bias = s.typed(manager.create(concat(s.host(HfNames.projection(l, "q_proj") + ".bias"),
                            s.host(HfNames.projection(l, "k_proj") + ".bias"), s.host(HfNames.projection(l, "v_proj") + ".bias"))));
                }
                layers.add(new LayerWeights(
                        s.vector(HfNames.layer(l, "input_layernorm.weight")),
                        s.fusedTransposed(l, "q_proj", "k_proj", "v_proj"),
                        bias,
                        c.qkNorm() ? s.vector(HfNames.layer(l, "self_attn.q_norm.weight")) : null,
                        c.qkNorm() ? s.vector(HfNames.layer(l, "self_attn.k_norm.weight")) : null,
                        s.fusedTransposed(l, "o_proj"),
                        c.oBias() ? s.vector(HfNames.projection(l, "o_proj") + ".bias") : null,
                        s.vector(HfNames.layer(l, "post_attention_layernorm.weight")),
                        s.fusedTransposed(l, "gate_proj", "up_proj"),
                        s.fusedTransposed(l, "down_proj")));
            }
            return new ModelWeights(s.rowsAsStored(t.get(HfNames.EMBED)), List.copyOf(layers),
                    s.vector(HfNames.FINAL_NORM), c.tiedEmbeddings() ? null : s.transposed(t.get(HfNames.LM_HEAD)));
        }
    }

    /** Block-by-block copies from the files into device arrays, through one reused direct buffer. */
    private static final class Streamed {
        private final Map<String, StoredTensor> t;
        private final TensorReader reader;
        private final NDManager manager;
        private final DataType dtype;
        private ByteBuffer block = ByteBuffer.allocateDirect(0);

        Streamed(Map<String, StoredTensor> t, TensorReader reader, NDManager manager, DataType dtype) {
            this.t = t;
            this.reader = reader;
            this.manager = manager;
            this.dtype = dtype;
        }

        /** An f32 array in the base's type (the f32 one freed). */
        NDArray typed(NDArray f32) {
            if (dtype == DataType.FLOAT32) {
                return f32;
            }
            NDArray out = f32.toType(dtype, false);
            f32.close();
            return out;
        }

        float[] host(String name) {
            return reader.read(t.get(name)).data();
        }

        NDArray vector(String name) {
            return typed(manager.create(host(name)));
        }

        NDArray fusedTransposed(int layer, String... projections) {
            StoredTensor[] ws = new StoredTensor[projections.length];
            long total = 0;
            for (int i = 0; i < ws.length; i++) {
                ws[i] = t.get(HfNames.projection(layer, projections[i]) + ".weight");
                total += ws[i].rows();
            }
            NDArray out = manager.zeros(new Shape(ws[0].cols(), total), dtype);
            long col0 = 0;
            for (StoredTensor w : ws) {
                copyRows(w, out, col0, true);
                col0 += w.rows();
            }
            return out;
        }

        NDArray transposed(StoredTensor w) {
            NDArray out = manager.zeros(new Shape(w.cols(), w.rows()), dtype);
            copyRows(w, out, 0, true);
            return out;
        }

        NDArray rowsAsStored(StoredTensor w) {
            NDArray out = manager.zeros(new Shape(w.rows(), w.cols()), dtype);
            copyRows(w, out, 0, false);
            return out;
        }

        /** Stored rows [r, r + n) land in rows (or, transposed, columns) {@code at + r ...} of {@code out}. */
        private void copyRows(StoredTensor w, NDArray out, long at, boolean transposed) {
            int rowsPerBlock = reader.rowsPerBlock(w);
            if (block.capacity() < rowsPerBlock * w.cols() * Float.BYTES) {
                block = ByteBuffer.allocateDirect((int) (rowsPerBlock * w.cols() * Float.BYTES)).order(ByteOrder.nativeOrder());
            }
            for (long r = 0; r < w.rows(); r += rowsPerBlock) {
                int n = (int) Math.min(rowsPerBlock, w.rows() - r);
                block.clear();
                reader.readRows(w, r, n, block.asFloatBuffer());
                block.limit((int) (n * w.cols() * Float.BYTES));
                try (NDManager scope = manager.newSubManager()) {
                    // a view of the direct buffer (no copy); set() copies it (converted to the base's type) into the device
                    // array before the buffer is reused
                    NDArray rows = scope.create(block, new Shape(n, w.cols()), DataType.FLOAT32);
                    if (transposed) {
                        out.set(new NDIndex(":, {}:{}", at + r, at + r + n), rows.transpose());
                    } else {
                        out.set(new NDIndex("{}:{}, :", at + r, at + r + n), rows);
                    }
                }
            }
        }
    }

    private static void validate(ModelConfig c, Map<String, HostTensor> t) {
        validate(c, t, HostTensor::shape);
    }

    private static <T> void validate(ModelConfig c, Map<String, T> t, Function<T, long[]> shapeOf) {
        for (Map.Entry<String, long[]> e : HfNames.shapes(c).entrySet()) {
            T found = t.get(e.getKey());
            if (found == null) {
                throw new IllegalArgumentException("tensor '" + e.getKey() + "' is missing");
            }
            if (!Arrays.equals(shapeOf.apply(found), e.getValue())) {
                throw new IllegalArgumentException("tensor '" + e.getKey() + "' has shape " + Arrays.toString(shapeOf.apply(found))
                        + " but the config needs " + Arrays.toString(e.getValue()));
            }
        }
    }

    /** Gaussian init (std 0.02, norms 1) from a seed, as HF initialises Llama; the same seed gives the same model. */
    public static Map<String, HostTensor> randomHf(ModelConfig c, long seed) {
        Random rnd = new Random(seed);
        Map<String, HostTensor> t = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : HfNames.shapes(c).entrySet()) {
            float[] data = new float[(int) HostTensor.numel(e.getValue())];
            if (e.getKey().endsWith("norm.weight")) {
                Arrays.fill(data, 1f);
            } else {
                for (int i = 0; i < data.length; i++) {
                    data[i] = (float) (rnd.nextGaussian() * 0.02);
                }
            }
            t.put(e.getKey(), new HostTensor(e.getValue(), data));
        }
        return t;
    }

    /** Copies the device weights back into HF-named host tensors (for saving and merging). */
    public Map<String, HostTensor> toHf(ModelConfig c) {
        Map<String, HostTensor> t = new LinkedHashMap<>();
        long d = c.dim(), q = c.qDim(), kv = c.kvDim(), h = c.hiddenDim();
        t.put(HfNames.EMBED, new HostTensor(new long[] {c.vocabSize(), d}, floats(embedding)));
        for (int l = 0; l < c.nLayers(); l++) {
            LayerWeights w = layers.get(l);
            t.put(HfNames.layer(l, "input_layernorm.weight"), new HostTensor(new long[] {d}, floats(w.attnNorm())));
            List<HostTensor> qkv = unfuse(w.wqkv(), q, kv, kv);
            t.put(HfNames.projection(l, "q_proj") + ".weight", qkv.get(0));
            t.put(HfNames.projection(l, "k_proj") + ".weight", qkv.get(1));
            t.put(HfNames.projection(l, "v_proj") + ".weight", qkv.get(2));
            if (w.qkvBias() != null) {
                float[] b = floats(w.qkvBias());
                t.put(HfNames.projection(l, "q_proj") + ".bias", new HostTensor(new long[] {q}, Arrays.copyOfRange(b, 0, (int) q)));
                t.put(HfNames.projection(l, "k_proj") + ".bias", new HostTensor(new long[] {kv}, Arrays.copyOfRange(b, (int) q, (int) (q + kv))));
                t.put(HfNames.projection(l, "v_proj") + ".bias", new HostTensor(new long[] {kv}, Arrays.copyOfRange(b, (int) (q + kv), b.length)));
            }
            if (w.qNorm() != null) {
                t.put(HfNames.layer(l, "self_attn.q_norm.weight"), new HostTensor(new long[] {c.headDim()}, floats(w.qNorm())));
                t.put(HfNames.layer(l, "self_attn.k_norm.weight"), new HostTensor(new long[] {c.headDim()}, floats(w.kNorm())));
            }
            t.put(HfNames.projection(l, "o_proj") + ".weight", unfuse(w.wo(), d).get(0));
            if (w.oBias() != null) {
                t.put(HfNames.projection(l, "o_proj") + ".bias", new HostTensor(new long[] {d}, floats(w.oBias())));
            }
            t.put(HfNames.layer(l, "post_attention_layernorm.weight"), new HostTensor(new long[] {d}, floats(w.ffnNorm())));
            List<HostTensor> gu = unfuse(w.wGateUp(), h, h);
            t.put(HfNames.projection(l, "gate_proj") + ".weight", gu.get(0));
            t.put(HfNames.projection(l, "up_proj") + ".weight", gu.get(1));
            t.put(HfNames.projection(l, "down_proj") + ".weight", unfuse(w.wDown(), d).get(0));
        }
        t.put(HfNames.FINAL_NORM, new HostTensor(new long[] {d}, floats(finalNorm)));
        if (lmHead != null) {
            t.put(HfNames.LM_HEAD, unfuse(lmHead, c.vocabSize()).get(0));
        }
        return t;
    }

    /** Every base weight array (for training a model from scratch). */
    public List<NDArray> all() {
        List<NDArray> out = new ArrayList<>(List.of(embedding, finalNorm));
        if (lmHead != null) {
            out.add(lmHead);
        }
        for (LayerWeights w : layers) {
            out.addAll(List.of(w.attnNorm(), w.wqkv(), w.wo(), w.ffnNorm(), w.wGateUp(), w.wDown()));
            for (NDArray optional : new NDArray[] {w.qkvBias(), w.qNorm(), w.kNorm(), w.oBias()}) {
                if (optional != null) {
                    out.add(optional);
                }
            }
        }
        return out;
    }

    /** Host values of a device array, widened from a half base's type. */
    private static float[] floats(NDArray a) {
        if (a.getDataType() == DataType.FLOAT32) {
            return a.toFloatArray();
        }
        try (NDArray f32 = a.toType(DataType.FLOAT32, false)) {
            return f32.toFloatArray();
        }
    }

    private static HostTensor proj(Map<String, HostTensor> t, int layer, String name) {
        return t.get(HfNames.projection(layer, name) + ".weight");
    }

    private static float[] bias(Map<String, HostTensor> t, int layer, String name) {
        return t.get(HfNames.projection(layer, name) + ".bias").data();
    }

    private static NDArray vector(NDManager m, HostTensor t) {
        return m.create(t.data());
    }

    private static float[] concat(float[]... parts) {
        int n = 0;
        for (float[] p : parts) {
            n += p.length;
        }
        float[] out = new float[n];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    private static NDArray fusedTransposed(NDManager m, HostTensor... ws) {
        HostTensor fused = HostMatrices.fuseTransposed(ws);
        return m.create(fused.data(), new Shape(fused.shape()));
    }

    private static List<HostTensor> unfuse(NDArray fused, long... outs) {
        return HostMatrices.unfuseTransposed(new HostTensor(fused.getShape().getShape(), floats(fused)), outs);
    }
}
