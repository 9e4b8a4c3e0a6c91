package dev.toolcoach.model.reference;

import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A plain float64 reading of Transformers' LlamaForCausalLM, Qwen2ForCausalLM, Qwen3ForCausalLM, MistralForCausalLM
 * and Phi3ForCausalLM (eager attention, no cache): one forward over a whole token sequence at positions 0..L-1.
 * Independent of the production model code; it only shares the safetensors reader.
 */
public final class ReferenceDecoder {
    private final ReferenceConfig config;
    private final Map<String, double[]> weights;

    private ReferenceDecoder(ReferenceConfig config, Map<String, double[]> weights) {
        this.config = config;
        this.weights = weights;
    }

    /** Reads config.json and model.safetensors; the file must hold exactly the tensors the family owns. */
    public static ReferenceDecoder load(Path folder) {
        ReferenceConfig config = ReferenceConfig.read(folder.resolve("config.json"));
        Path file = folder.resolve("model.safetensors");
        Map<String, HostTensor> tensors = SafetensorsReader.read(file);
        Map<String, long[]> expected = config.tensorShapes();
        Set<String> missing = new TreeSet<>(expected.keySet());
        missing.removeAll(tensors.keySet());
        Set<String> unexpected = new TreeSet<>(tensors.keySet());
        unexpected.removeAll(expected.keySet());
        if (!missing.isEmpty() || !unexpected.isEmpty()) {
            throw new IllegalArgumentException(file + ": missing tensors " + missing + ", unexpected tensors " + unexpected);
        }
        Map<String, double[]> weights = new HashMap<>();
        for (Map.Entry<String, long[]> e : expected.entrySet()) {
            HostTensor t = tensors.get(e.getKey());
            if (!t.hasShape(e.getValue())) {
                throw new IllegalArgumentException(file + ": tensor '" + e.getKey() + "' has shape "
                        + Arrays.toString(t.shape()) + ", expected " + Arrays.toString(e.getValue()));
            }
            double[] d = new double[t.data().length];
            for (int i = 0; i < d.length; i++) {
                d[i] = t.data()[i];
            }
            weights.put(e.getKey(), d);
        }
        return new ReferenceDecoder(config, weights);
    }

    public ReferenceConfig config() {
        return config;
    }

    /** Logits [position][vocab] of one fresh forward over {@code tokens} at positions 0..L-1. */
    public double[][] logits(int[] tokens) {
        int len = tokens.length;
        int hidden = config.hiddenSize();
        double[][] x = new double[len][];
        double[] embed = w("model.embed_tokens.weight");
        for (int i = 0; i < len; i++) {
            if (tokens[i] < 0 || tokens[i] >= config.vocabSize()) {
                throw new IllegalArgumentException("token " + tokens[i] + " at " + i + " is outside the vocabulary of " + config.vocabSize());
            }
            x[i] = Arrays.copyOfRange(embed, tokens[i] * hidden, (tokens[i] + 1) * hidden);
        }
        Rotary rotary = new Rotary(config.rope(), len);
        for (int l = 0; l < config.numLayers(); l++) {
            String p = "model.layers." + l + ".";
            double[][] attn = attention(p, rmsNorm(x, w(p + "input_layernorm.weight")), rotary, config.slidingWindows()[l]);
            add(x, attn);
            double[][] mlp = mlp(p, rmsNorm(x, w(p + "post_attention_layernorm.weight")));
            add(x, mlp);
        }
        double[][] h = rmsNorm(x, w("model.norm.weight"));
        double[] head = w(config.tieWordEmbeddings() ? "model.embed_tokens.weight" : "lm_head.weight");
        double[][] out = new double[len][];
        for (int i = 0; i < len; i++) {
            out[i] = linear(h[i], head, null, config.vocabSize());
        }
        return out;
    }

    /** Self-attention of one layer: projections, (Qwen3) per-head norms, RoPE, GQA, causal/sliding mask, o_proj. */
    private double[][] attention(String p, double[][] h, Rotary rotary, int window) {
        int len = h.length;
        int heads = config.numHeads();
        int kvHeads = config.numKvHeads();
        int hd = config.headDim();
        double[][][] q = new double[len][][];
        double[][][] k = new double[len][][];
        double[][][] v = new double[len][][];
        for (int i = 0; i < len; i++) {
            double[] qf;
            double[] kf;
            double[] vf;
            if (config.fusedProjections()) {
                // Phi-3's qkv_proj output is [q (heads*hd) | k (kv*hd) | v (kv*hd)]
                double[] qkv = linear(h[i], w(p + "self_attn.qkv_proj.weight"), null, (heads + 2 * kvHeads) * hd);
                qf = Arrays.copyOfRange(qkv, 0, heads * hd);
                kf = Arrays.copyOfRange(qkv, heads * hd, (heads + kvHeads) * hd);
                vf = Arrays.copyOfRange(qkv, (heads + kvHeads) * hd, qkv.length);
            } else {
                qf = linear(h[i], w(p + "self_attn.q_proj.weight"), bias(p + "self_attn.q_proj.bias", config.qkvBias()), heads * hd);
                kf = linear(h[i], w(p + "self_attn.k_proj.weight"), bias(p + "self_attn.k_proj.bias", config.qkvBias()), kvHeads * hd);
                vf = linear(h[i], w(p + "self_attn.v_proj.weight"), bias(p + "self_attn.v_proj.bias", config.qkvBias()), kvHeads * hd);
            }
            q[i] = split(qf, heads, hd);
            k[i] = split(kf, kvHeads, hd);
            v[i] = split(vf, kvHeads, hd);
            if (config.hasQkNorm()) {
                q[i] = rmsNorm(q[i], w(p + "self_attn.q_norm.weight"));
                k[i] = rmsNorm(k[i], w(p + "self_attn.k_norm.weight"));
            }
            for (double[] head : q[i]) {
                rotary.apply(head, i);
            }
            for (double[] head : k[i]) {
                rotary.apply(head, i);
            }
        }
        double scale = 1.0 / Math.sqrt(hd);
        int group = heads / kvHeads; // repeat_kv: query head n reads kv head n / group
        double[][] out = new double[len][heads * hd];
        for (int i = 0; i < len; i++) {
            for (int n = 0; n < heads; n++) {
                int kv = n / group;
                double[] scores = new double[i + 1];
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j <= i; j++) {
                    boolean visible = window == 0 || j > i - window; // causal, and within the sliding window
                    scores[j] = visible ? dot(q[i][n], k[j][kv]) * scale : Double.NEGATIVE_INFINITY;
                    max = Math.max(max, scores[j]);
                }
                double sum = 0;
                for (int j = 0; j <= i; j++) {
                    scores[j] = Math.exp(scores[j] - max);
                    sum += scores[j];
                }
                for (int j = 0; j <= i; j++) {
                    double a = scores[j] / sum;
                    for (int d = 0; d < hd; d++) {
                        out[i][n * hd + d] += a * v[j][kv][d];
                    }
                }
            }
        }
        double[][] o = new double[len][];
        for (int i = 0; i < len; i++) {
            o[i] = linear(out[i], w(p + "self_attn.o_proj.weight"), bias(p + "self_attn.o_proj.bias", config.oBias()), config.hiddenSize());
        }
        return o;
    }

    /** down(silu(gate(x)) * up(x)); Phi-3's gate_up_proj output is [gate | up]. */
    private double[][] mlp(String p, double[][] h) {
        int inter = config.intermediateSize();
        double[][] out = new double[h.length][];
        for (int i = 0; i < h.length; i++) {
            double[] gate;
            double[] up;
            if (config.fusedProjections()) {
                double[] gu = linear(h[i], w(p + "mlp.gate_up_proj.weight"), null, 2 * inter);
                gate = Arrays.copyOfRange(gu, 0, inter);
                up = Arrays.copyOfRange(gu, inter, 2 * inter);
            } else {
                gate = linear(h[i], w(p + "mlp.gate_proj.weight"), bias(p + "mlp.gate_proj.bias", config.mlpBias()), inter);
                up = linear(h[i], w(p + "mlp.up_proj.weight"), bias(p + "mlp.up_proj.bias", config.mlpBias()), inter);
            }
            double[] act = new double[inter];
            for (int j = 0; j < inter; j++) {
                act[j] = gate[j] / (1 + Math.exp(-gate[j])) * up[j];
            }
            out[i] = linear(act, w(p + "mlp.down_proj.weight"), bias(p + "mlp.down_proj.bias", config.mlpBias()), config.hiddenSize());
        }
        return out;
    }

    /** RMSNorm of each row: x / sqrt(mean(x²) + eps), then times the weight. */
    private double[][] rmsNorm(double[][] x, double[] weight) {
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            double ss = 0;
            for (double val : x[i]) {
                ss += val * val;
            }
            double inv = 1.0 / Math.sqrt(ss / x[i].length + config.rmsNormEps());
            out[i] = new double[x[i].length];
            for (int d = 0; d < x[i].length; d++) {
                out[i][d] = weight[d] * (x[i][d] * inv);
            }
        }
        return out;
    }

    /**
     * RoPE as Transformers applies it: emb = cat(freqs, freqs), cos/sin times the attention scaling, and
     * x_rot * cos + rotate_half(x_rot) * sin on the first rotaryDim dims (rotate_half(a) = cat(-a2, a1)); the
     * remaining dims pass through (Phi-3's partial rotary).
     */
    private static final class Rotary {
        private final double[] invFreq;
        private final double scaling;

        Rotary(RopeParameters rope, int seqLen) {
            this.invFreq = rope.invFreq(seqLen);
            this.scaling = rope.attentionScaling();
        }

        void apply(double[] x, int position) {
            int half = invFreq.length;
            for (int d = 0; d < half; d++) {
                double angle = position * invFreq[d];
                double cos = Math.cos(angle) * scaling;
                double sin = Math.sin(angle) * scaling;
                double a = x[d];
                double b = x[d + half];
                x[d] = a * cos - b * sin;
                x[d + half] = b * cos + a * sin;
            }
        }
    }

    private double[] w(String name) {
        return weights.get(name);
    }

    private double[] bias(String name, boolean present) {
        return present ? weights.get(name) : null;
    }

    /** y = W x + b with W stored [out][in] row-major, as nn.Linear. */
    private static double[] linear(double[] x, double[] weight, double[] bias, int outDim) {
        int in = x.length;
        double[] y = new double[outDim];
        for (int o = 0; o < outDim; o++) {
            double s = bias == null ? 0 : bias[o];
            for (int j = 0; j < in; j++) {
                s += weight[o * in + j] * x[j];
            }
            y[o] = s;
        }
        return y;
    }

    private static double[][] split(double[] flat, int heads, int hd) {
        double[][] out = new double[heads][];
        for (int n = 0; n < heads; n++) {
            out[n] = Arrays.copyOfRange(flat, n * hd, (n + 1) * hd);
        }
        return out;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static void add(double[][] x, double[][] delta) {
        for (int i = 0; i < x.length; i++) {
            for (int d = 0; d < x[i].length; d++) {
                x[i][d] += delta[i][d];
            }
        }
    }
}
