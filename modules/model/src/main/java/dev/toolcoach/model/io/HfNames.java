package dev.toolcoach.model.io;

import dev.toolcoach.model.config.ModelConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hugging Face tensor names in the Llama layout (separate q/k/v and gate/up projections), the one naming scheme used
 * inside this module; {@link CheckpointLayout} maps a family whose checkpoints name them otherwise (Phi-3) onto it.
 */
public final class HfNames {
    public static final String EMBED = "model.embed_tokens.weight";
    public static final String FINAL_NORM = "model.norm.weight";
    public static final String LM_HEAD = "lm_head.weight";

    private HfNames() {
    }

    public static String layer(int layer, String suffix) {
        return "model.layers." + layer + "." + suffix;
    }

    /** Module path of a projection, e.g. {@code model.layers.0.self_attn.q_proj} for "q_proj". */
    public static String projection(int layer, String proj) {
        String block = switch (proj) {
            case "q_proj", "k_proj", "v_proj", "o_proj", "qkv_proj" -> "self_attn";
            case "gate_proj", "up_proj", "down_proj", "gate_up_proj" -> "mlp";
            default -> throw new IllegalArgumentException("unknown projection " + proj);
        };
        return layer(layer, block + "." + proj);
    }

    /** Every tensor a config needs, with its shape, in this layout. */
    public static Map<String, long[]> shapes(ModelConfig c) {
        Map<String, long[]> s = new LinkedHashMap<>();
        long d = c.dim(), q = c.qDim(), kv = c.kvDim(), h = c.hiddenDim();
        s.put(EMBED, new long[] {c.vocabSize(), d});
        for (int l = 0; l < c.nLayers(); l++) {
            s.put(layer(l, "input_layernorm.weight"), new long[] {d});
            s.put(projection(l, "q_proj") + ".weight", new long[] {q, d});
            s.put(projection(l, "k_proj") + ".weight", new long[] {kv, d});
            s.put(projection(l, "v_proj") + ".weight", new long[] {kv, d});
            if (c.qkvBias()) {
                s.put(projection(l, "q_proj") + ".bias", new long[] {q});
                s.put(projection(l, "k_proj") + ".bias", new long[] {kv});
                s.put(projection(l, "v_proj") + ".bias", new long[] {kv});
            }
            if (c.qkNorm()) {
                s.put(layer(l, "self_attn.q_norm.weight"), new long[] {c.headDim()});
                s.put(layer(l, "self_attn.k_norm.weight"), new long[] {c.headDim()});
            }
            s.put(projection(l, "o_proj") + ".weight", new long[] {d, q});
            if (c.oBias()) {
                s.put(projection(l, "o_proj") + ".bias", new long[] {d});
            }
            s.put(layer(l, "post_attention_layernorm.weight"), new long[] {d});
            s.put(projection(l, "gate_proj") + ".weight", new long[] {h, d});
            s.put(projection(l, "up_proj") + ".weight", new long[] {h, d});
            s.put(projection(l, "down_proj") + ".weight", new long[] {d, h});
        }
        s.put(FINAL_NORM, new long[] {d});
        if (!c.tiedEmbeddings()) {
            s.put(LM_HEAD, new long[] {c.vocabSize(), d});
        }
        return s;
    }
}
