package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostMatrices;
import dev.toolcoach.model.io.HostTensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

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

    private static void validate(ModelConfig c, Map<String, HostTensor> t) {
        for (Map.Entry<String, long[]> e : HfNames.shapes(c).entrySet()) {
            HostTensor found = t.get(e.getKey());
            if (found == null) {
                throw new IllegalArgumentException("tensor '" + e.getKey() + "' is missing");
            }
            if (!found.hasShape(e.getValue())) {
                throw new IllegalArgumentException("tensor '" + e.getKey() + "' has shape " + Arrays.toString(found.shape())
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
        t.put(HfNames.EMBED, new HostTensor(new long[] {c.vocabSize(), d}, embedding.toFloatArray()));
        for (int l = 0; l < c.nLayers(); l++) {
            LayerWeights w = layers.get(l);
            t.put(HfNames.layer(l, "input_layernorm.weight"), new HostTensor(new long[] {d}, w.attnNorm().toFloatArray()));
            List<HostTensor> qkv = unfuse(w.wqkv(), q, kv, kv);
            t.put(HfNames.projection(l, "q_proj") + ".weight", qkv.get(0));
            t.put(HfNames.projection(l, "k_proj") + ".weight", qkv.get(1));
            t.put(HfNames.projection(l, "v_proj") + ".weight", qkv.get(2));
            if (w.qkvBias() != null) {
                float[] b = w.qkvBias().toFloatArray();
                t.put(HfNames.projection(l, "q_proj") + ".bias", new HostTensor(new long[] {q}, Arrays.copyOfRange(b, 0, (int) q)));
                t.put(HfNames.projection(l, "k_proj") + ".bias", new HostTensor(new long[] {kv}, Arrays.copyOfRange(b, (int) q, (int) (q + kv))));
                t.put(HfNames.projection(l, "v_proj") + ".bias", new HostTensor(new long[] {kv}, Arrays.copyOfRange(b, (int) (q + kv), b.length)));
            }
            if (w.qNorm() != null) {
                t.put(HfNames.layer(l, "self_attn.q_norm.weight"), new HostTensor(new long[] {c.headDim()}, w.qNorm().toFloatArray()));
                t.put(HfNames.layer(l, "self_attn.k_norm.weight"), new HostTensor(new long[] {c.headDim()}, w.kNorm().toFloatArray()));
            }
            t.put(HfNames.projection(l, "o_proj") + ".weight", unfuse(w.wo(), d).get(0));
            if (w.oBias() != null) {
                t.put(HfNames.projection(l, "o_proj") + ".bias", new HostTensor(new long[] {d}, w.oBias().toFloatArray()));
            }
            t.put(HfNames.layer(l, "post_attention_layernorm.weight"), new HostTensor(new long[] {d}, w.ffnNorm().toFloatArray()));
            List<HostTensor> gu = unfuse(w.wGateUp(), h, h);
            t.put(HfNames.projection(l, "gate_proj") + ".weight", gu.get(0));
            t.put(HfNames.projection(l, "up_proj") + ".weight", gu.get(1));
            t.put(HfNames.projection(l, "down_proj") + ".weight", unfuse(w.wDown(), d).get(0));
        }
        t.put(HfNames.FINAL_NORM, new HostTensor(new long[] {d}, finalNorm.toFloatArray()));
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
        return HostMatrices.unfuseTransposed(new HostTensor(fused.getShape().getShape(), fused.toFloatArray()), outs);
    }
}
