package dev.toolcoach.model.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A config.json read as Transformers' config classes read it (LlamaConfig, Qwen2Config, Qwen3Config, MistralConfig,
 * Phi3Config), with their defaults for absent fields; the structural sizes are required instead, since a tiny test
 * folder always has them. Also names every tensor the family's modeling code owns, with its shape.
 *
 * @param modelType       llama, qwen2, qwen3, mistral or phi3
 * @param headDim         head_dim when given, else hidden/heads (Qwen3Config: 128)
 * @param qkvBias         q/k/v projections carry a bias (qwen2 always; llama and qwen3 when attention_bias)
 * @param oBias           o_proj carries a bias (llama and qwen3 when attention_bias)
 * @param mlpBias         gate/up/down carry a bias (llama mlp_bias)
 * @param slidingWindows  per layer: the window, or 0 for full causal attention
 */
public record ReferenceConfig(String modelType, int hiddenSize, int intermediateSize, int numLayers, int numHeads,
                              int numKvHeads, int headDim, int vocabSize, double rmsNormEps, boolean tieWordEmbeddings,
                              boolean qkvBias, boolean oBias, boolean mlpBias, int[] slidingWindows, RopeParameters rope) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static ReferenceConfig read(Path configJson) {
        try {
            return parse(JSON.readTree(configJson.toFile()), configJson.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(configJson + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** @param source names the file in error messages */
    public static ReferenceConfig parse(JsonNode n, String source) {
        String type = n.path("model_type").asText("");
        int hidden = required(n, "hidden_size", source);
        int heads = required(n, "num_attention_heads", source);
        int layers = required(n, "num_hidden_layers", source);
        if (n.hasNonNull("hidden_act") && !n.get("hidden_act").asText().equals("silu")) {
            throw new IllegalArgumentException(source + ": field 'hidden_act' = " + n.get("hidden_act") + ", the reference knows only silu");
        }
        // Defaults of each family's config class, for fields a real config.json may leave out.
        int defaultKv;
        int defaultMaxPositions;
        double defaultEps = 1e-6;
        Integer defaultOriginalMax = null;
        int defaultHeadDim = hidden / heads;
        switch (type) {
            case "llama" -> {
                defaultKv = heads;
                defaultMaxPositions = 2048;
            }
            case "qwen2" -> {
                defaultKv = 32;
                defaultMaxPositions = 32768;
            }
            case "qwen3" -> {
                defaultKv = 32;
                defaultMaxPositions = 32768;
                defaultHeadDim = 128;
            }
            case "mistral" -> {
                defaultKv = 8;
                defaultMaxPositions = 4096 * 32;
            }
            case "phi3" -> {
                defaultKv = heads;
                defaultMaxPositions = 4096;
                defaultEps = 1e-5;
                defaultOriginalMax = 4096;
            }
            default -> throw new IllegalArgumentException(source + ": field 'model_type' = '" + type
                    + "' is not one of llama, qwen2, qwen3, mistral, phi3");
        }
        int headDim = n.hasNonNull("head_dim") ? n.get("head_dim").asInt() : defaultHeadDim;
        int maxPositions = n.hasNonNull("max_position_embeddings") ? n.get("max_position_embeddings").asInt() : defaultMaxPositions;
        boolean attentionBias = n.path("attention_bias").asBoolean(false);
        RopeParameters rope = RopeParameters.parse(n, source, headDim, maxPositions, 10000.0, defaultOriginalMax);
        if (rope.rotaryDim() != headDim && !type.equals("phi3")) { // the other families rotate whole heads
            throw new IllegalArgumentException(source + ": field 'partial_rotary_factor' is only honoured by phi3");
        }
        return new ReferenceConfig(type, hidden, required(n, "intermediate_size", source), layers, heads,
                n.hasNonNull("num_key_value_heads") ? n.get("num_key_value_heads").asInt() : defaultKv, headDim,
                required(n, "vocab_size", source),
                n.hasNonNull("rms_norm_eps") ? n.get("rms_norm_eps").asDouble() : defaultEps,
                n.path("tie_word_embeddings").asBoolean(false),
                type.equals("qwen2") || (attentionBias && (type.equals("llama") || type.equals("qwen3"))),
                attentionBias && (type.equals("llama") || type.equals("qwen3")),
                type.equals("llama") && n.path("mlp_bias").asBoolean(false),
                slidingWindows(n, type, layers, source), rope);
    }

    /**
     * Mistral and Phi-3 apply {@code sliding_window} (Mistral's default 4096, Phi-3's none) to every layer. Qwen2/3
     * keep it only when {@code use_sliding_window}, and then (unless {@code layer_types} says otherwise) only on
     * layers from {@code max_window_layers} (default 28) on. Llama has no sliding window.
     */
    private static int[] slidingWindows(JsonNode n, String type, int layers, String source) {
        int[] out = new int[layers];
        Integer window = switch (type) {
            case "mistral" -> window(n, 4096);
            case "phi3" -> window(n, null);
            case "qwen2", "qwen3" -> n.path("use_sliding_window").asBoolean(false) ? window(n, 4096) : null;
            default -> null;
        };
        if (window == null) {
            return out;
        }
        JsonNode layerTypes = n.path("layer_types");
        int maxWindowLayers = n.path("max_window_layers").asInt(28);
        for (int i = 0; i < layers; i++) {
            boolean sliding;
            if (type.startsWith("qwen")) {
                if (layerTypes.isArray()) {
                    if (layerTypes.size() != layers) {
                        throw new IllegalArgumentException(source + ": field 'layer_types' has " + layerTypes.size() + " entries for " + layers + " layers");
                    }
                    sliding = layerTypes.get(i).asText().equals("sliding_attention");
                } else {
                    sliding = i >= maxWindowLayers;
                }
            } else {
                sliding = true;
            }
            out[i] = sliding ? window : 0;
        }
        return out;
    }

    /** sliding_window: null when written as null, {@code absent} when not written. */
    private static Integer window(JsonNode n, Integer absent) {
        if (!n.has("sliding_window")) {
            return absent;
        }
        return n.get("sliding_window").isNull() ? null : Integer.valueOf(n.get("sliding_window").asInt());
    }

    /** Every tensor the family's modeling code owns, in a fixed order, with its shape. */
    public Map<String, long[]> tensorShapes() {
        Map<String, long[]> t = new LinkedHashMap<>();
        long qDim = (long) numHeads * headDim;
        long kvDim = (long) numKvHeads * headDim;
        t.put("model.embed_tokens.weight", new long[] {vocabSize, hiddenSize});
        for (int l = 0; l < numLayers; l++) {
            String p = "model.layers." + l + ".";
            t.put(p + "input_layernorm.weight", new long[] {hiddenSize});
            if (fusedProjections()) {
                t.put(p + "self_attn.qkv_proj.weight", new long[] {qDim + 2 * kvDim, hiddenSize});
            } else {
                t.put(p + "self_attn.q_proj.weight", new long[] {qDim, hiddenSize});
                t.put(p + "self_attn.k_proj.weight", new long[] {kvDim, hiddenSize});
                t.put(p + "self_attn.v_proj.weight", new long[] {kvDim, hiddenSize});
                if (qkvBias) {
                    t.put(p + "self_attn.q_proj.bias", new long[] {qDim});
                    t.put(p + "self_attn.k_proj.bias", new long[] {kvDim});
                    t.put(p + "self_attn.v_proj.bias", new long[] {kvDim});
                }
            }
            if (hasQkNorm()) {
                t.put(p + "self_attn.q_norm.weight", new long[] {headDim});
                t.put(p + "self_attn.k_norm.weight", new long[] {headDim});
            }
            t.put(p + "self_attn.o_proj.weight", new long[] {hiddenSize, qDim});
            if (oBias) {
                t.put(p + "self_attn.o_proj.bias", new long[] {hiddenSize});
            }
            t.put(p + "post_attention_layernorm.weight", new long[] {hiddenSize});
            if (fusedProjections()) {
                t.put(p + "mlp.gate_up_proj.weight", new long[] {2L * intermediateSize, hiddenSize});
            } else {
                t.put(p + "mlp.gate_proj.weight", new long[] {intermediateSize, hiddenSize});
                t.put(p + "mlp.up_proj.weight", new long[] {intermediateSize, hiddenSize});
            }
            t.put(p + "mlp.down_proj.weight", new long[] {hiddenSize, intermediateSize});
            if (mlpBias) {
                t.put(p + "mlp.gate_proj.bias", new long[] {intermediateSize});
                t.put(p + "mlp.up_proj.bias", new long[] {intermediateSize});
                t.put(p + "mlp.down_proj.bias", new long[] {hiddenSize});
            }
        }
        t.put("model.norm.weight", new long[] {hiddenSize});
        if (!tieWordEmbeddings) {
            t.put("lm_head.weight", new long[] {vocabSize, hiddenSize});
        }
        return t;
    }

    /** Phi-3 stores q/k/v as one qkv_proj and gate/up as one gate_up_proj. */
    public boolean fusedProjections() {
        return modelType.equals("phi3");
    }

    /** Qwen3 RMS-normalises each query and key head before RoPE. */
    public boolean hasQkNorm() {
        return modelType.equals("qwen3");
    }

    private static int required(JsonNode n, String field, String source) {
        if (!n.path(field).canConvertToInt()) {
            throw new IllegalArgumentException(source + ": missing or non-integer field '" + field + "'");
        }
        return n.get(field).asInt();
    }
}
