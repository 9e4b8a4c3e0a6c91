package dev.toolcoach.model.reference;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.TinyHfFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Tiny random checkpoints in exact Hugging Face layout (config.json with the real field names, model.safetensors
 * with the real tensor names, plus the WordLevel tokenizer.json and generation_config.json of {@link TinyHfFolder}),
 * shaped so each family's feature shows in the logits of a {@link #LONG_SEQUENCE}-token sequence:
 * <ul>
 *   <li>llama: GQA 4/2 heads, head_dim 16 written explicitly, rope_theta 500000;</li>
 *   <li>qwen2: q/k/v bias, tied embeddings, rope_theta 1e6, and {@code sliding_window: 6} with
 *       {@code use_sliding_window: false} (as Qwen2.5 ships it: the window must be ignored);</li>
 *   <li>qwen3: head_dim 16 ≠ hidden/heads = 8, q_norm/k_norm, tied embeddings;</li>
 *   <li>mistral: {@code sliding_window: 6}, honoured on every layer;</li>
 *   <li>phi3: fused qkv_proj and gate_up_proj, partial_rotary_factor 0.75 (12 of 16 dims rotate), with
 *       {@link Rope#LONGROPE} original_max_position_embeddings 16 (short factors up to 16 tokens, long beyond).</li>
 * </ul>
 * Rope variants (any family): LINEAR factor 2; DYNAMIC factor 2 with max_position_embeddings 16; LLAMA3 factor 8,
 * low/high 1/4, original 64 (with head_dim 16 and theta 5e5 the frequencies fall in all three bands); YARN factor 4,
 * original 16, max_position_embeddings 64; LONGROPE as above. Weights come from the seed and each tensor's name only,
 * so two folders of one family and seed share every tensor they both have, whatever their rope.
 */
public final class TinyHfFolders {
    /** A sequence length past every threshold above (sliding window 6, original/max positions 16). */
    public static final int LONG_SEQUENCE = 24;

    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Family {
        LLAMA("llama", "LlamaForCausalLM"), QWEN2("qwen2", "Qwen2ForCausalLM"), QWEN3("qwen3", "Qwen3ForCausalLM"),
        MISTRAL("mistral", "MistralForCausalLM"), PHI3("phi3", "Phi3ForCausalLM");

        public final String modelType;
        final String architecture;

        Family(String modelType, String architecture) {
            this.modelType = modelType;
            this.architecture = architecture;
        }
    }

    public enum Rope { DEFAULT, LINEAR, DYNAMIC, LLAMA3, YARN, LONGROPE }

    /**
     * V4: top-level {@code rope_theta} and a {@code rope_scaling} dict (null for DEFAULT; YARN spells its type
     * {@code "type"} as Qwen2.5's model card does, the others {@code "rope_type"}); V5: everything in
     * {@code rope_parameters}, including {@code partial_rotary_factor}.
     */
    public enum ConfigStyle { V4, V5 }

    private TinyHfFolders() {
    }

    /** Writes the family's folder; see {@link #config} and {@link #write(Path, ObjectNode, long)}. */
    public static Path write(Path dir, Family family, Rope rope, ConfigStyle style, long seed) throws IOException {
        return write(dir, config(family, rope, style), seed);
    }

    /** Writes config.json as given, random tensors of the shapes it implies, tokenizer.json and generation_config.json. */
    public static Path write(Path dir, ObjectNode config, long seed) throws IOException {
        Files.createDirectories(dir);
        Path configFile = dir.resolve("config.json");
        Files.writeString(configFile, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config));
        ReferenceConfig parsed = ReferenceConfig.parse(config, configFile.toString());
        SafetensorsWriter.write(dir.resolve("model.safetensors"), randomTensors(parsed, seed), Map.of("format", "pt"));
        TinyHfFolder.writeTokenizerFiles(dir, parsed.vocabSize());
        return dir;
    }

    /**
     * Every tensor the config implies, each from its own Random(seed, name): norms 1 + N(0, 0.2²), embeddings N(0, 1),
     * everything else N(0, 0.2²), so attention is far from uniform and every feature moves the logits.
     */
    public static Map<String, HostTensor> randomTensors(ReferenceConfig config, long seed) {
        Map<String, HostTensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, long[]> e : config.tensorShapes().entrySet()) {
            String name = e.getKey();
            Random r = new Random(seed * 1_000_003L + name.hashCode());
            float[] data = new float[(int) HostTensor.numel(e.getValue())];
            boolean norm = name.endsWith("norm.weight");
            double std = name.contains("embed_tokens") ? 1.0 : 0.2;
            for (int i = 0; i < data.length; i++) {
                data[i] = (float) ((norm ? 1.0 : 0.0) + std * r.nextGaussian());
            }
            out.put(name, new HostTensor(e.getValue(), data));
        }
        return out;
    }

    /** The family's config.json as a mutable tree: change fields before {@link #write(Path, ObjectNode, long)}. */
    public static ObjectNode config(Family family, Rope rope, ConfigStyle style) {
        ObjectNode n = JSON.createObjectNode();
        n.putArray("architectures").add(family.architecture);
        n.put("model_type", family.modelType);
        n.put("hidden_act", "silu");
        double theta;
        switch (family) {
            case LLAMA -> {
                sizes(n, 64, 96, 4, 2, 96);
                n.put("head_dim", 16);
                n.put("attention_bias", false);
                n.put("mlp_bias", false);
                n.put("rms_norm_eps", 1e-5);
                n.put("tie_word_embeddings", false);
                theta = 500000.0;
            }
            case QWEN2 -> {
                sizes(n, 32, 64, 4, 2, 80);
                n.put("rms_norm_eps", 1e-6);
                n.put("tie_word_embeddings", true);
                n.put("use_sliding_window", false);
                n.put("sliding_window", 6);
                n.put("max_window_layers", 0);
                theta = 1_000_000.0;
            }
            case QWEN3 -> {
                sizes(n, 32, 64, 4, 2, 80);
                n.put("head_dim", 16);
                n.put("attention_bias", false);
                n.put("rms_norm_eps", 1e-6);
                n.put("tie_word_embeddings", true);
                n.put("use_sliding_window", false);
                n.putNull("sliding_window");
                n.put("max_window_layers", 2);
                theta = 1_000_000.0;
            }
            case MISTRAL -> {
                sizes(n, 32, 64, 4, 2, 80);
                n.put("head_dim", 8);
                n.put("rms_norm_eps", 1e-5);
                n.put("tie_word_embeddings", false);
                n.put("sliding_window", 6);
                theta = 10000.0;
            }
            case PHI3 -> {
                sizes(n, 64, 96, 4, 2, 96);
                n.put("attention_bias", false);
                n.put("rms_norm_eps", 1e-5);
                n.put("tie_word_embeddings", false);
                n.putNull("sliding_window");
                n.put("original_max_position_embeddings", 16);
                theta = 10000.0;
            }
            default -> throw new IllegalStateException(family.name());
        }
        n.put("max_position_embeddings", 64);
        ObjectNode params = JSON.createObjectNode();
        switch (rope) {
            case DEFAULT -> {
            }
            case LINEAR -> params.put("factor", 2.0);
            case DYNAMIC -> {
                params.put("factor", 2.0);
                n.put("max_position_embeddings", 16);
            }
            case LLAMA3 -> params.put("factor", 8.0).put("low_freq_factor", 1.0).put("high_freq_factor", 4.0)
                    .put("original_max_position_embeddings", 64);
            case YARN -> params.put("factor", 4.0).put("original_max_position_embeddings", 16); // 4 x 16 = max positions
            case LONGROPE -> {
                // Phi-3 keeps the pretraining length at the top level; other families would put it in the dict
                if (family != Family.PHI3) {
                    params.put("original_max_position_embeddings", 16);
                }
                int half = rotaryDim(n, family) / 2;
                ArrayNode shortFactor = params.putArray("short_factor");
                ArrayNode longFactor = params.putArray("long_factor");
                for (int i = 0; i < half; i++) {
                    shortFactor.add(1.0 + 0.1 * i);
                    longFactor.add(1.0 + 2.0 * i);
                }
                if (style == ConfigStyle.V5) {
                    params.put("factor", 4.0); // max_position_embeddings / original, explicit as v5 recommends
                }
            }
            default -> throw new IllegalStateException(rope.name());
        }
        String type = rope.name().toLowerCase(Locale.ROOT);
        if (style == ConfigStyle.V4) {
            n.put("rope_theta", theta);
            if (family == Family.PHI3) {
                n.put("partial_rotary_factor", 0.75);
            }
            if (rope == Rope.DEFAULT) {
                n.putNull("rope_scaling");
            } else {
                ObjectNode scaling = n.putObject("rope_scaling");
                scaling.put(rope == Rope.YARN ? "type" : "rope_type", type);
                scaling.setAll(params);
            }
            n.put("torch_dtype", "float32");
            n.put("transformers_version", "4.51.3");
        } else {
            ObjectNode p = n.putObject("rope_parameters");
            p.put("rope_type", type);
            p.put("rope_theta", theta);
            if (family == Family.PHI3) {
                p.put("partial_rotary_factor", 0.75);
            }
            p.setAll(params);
            n.put("dtype", "float32");
            n.put("transformers_version", "5.0.0");
        }
        return n;
    }

    private static void sizes(ObjectNode n, int hidden, int intermediate, int heads, int kvHeads, int vocab) {
        n.put("hidden_size", hidden);
        n.put("intermediate_size", intermediate);
        n.put("num_hidden_layers", 2);
        n.put("num_attention_heads", heads);
        n.put("num_key_value_heads", kvHeads);
        n.put("vocab_size", vocab);
    }

    private static int rotaryDim(ObjectNode n, Family family) {
        int headDim = n.has("head_dim") ? n.get("head_dim").asInt()
                : n.get("hidden_size").asInt() / n.get("num_attention_heads").asInt();
        return family == Family.PHI3 ? (int) (headDim * 0.75) : headDim;
    }
}
