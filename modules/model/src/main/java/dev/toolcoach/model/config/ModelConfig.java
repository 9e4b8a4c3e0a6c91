package dev.toolcoach.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.io.ModelLoadException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Shape of a Llama-family decoder (model_type {@code llama} or {@code qwen2}).
 *
 * @param architecture HF model_type: "llama" or "qwen2"
 * @param qkvBias      q/k/v projections carry a bias (Qwen2)
 */
public record ModelConfig(String architecture, int dim, int hiddenDim, int nLayers, int nHeads, int nKvHeads,
                          int vocabSize, int maxSeqLen, float normEps, float ropeTheta,
                          boolean tiedEmbeddings, boolean qkvBias) {

    public ModelConfig {
        if (!architecture.equals("llama") && !architecture.equals("qwen2")) {
            throw new IllegalArgumentException("unsupported architecture '" + architecture + "' (supported: llama, qwen2)");
        }
        if (dim <= 0 || hiddenDim <= 0 || nLayers <= 0 || nHeads <= 0 || nKvHeads <= 0 || vocabSize <= 0 || maxSeqLen <= 0) {
            throw new IllegalArgumentException("model sizes must be positive");
        }
        if (dim % nHeads != 0 || nHeads % nKvHeads != 0 || (dim / nHeads) % 2 != 0) {
            throw new IllegalArgumentException("dim " + dim + " / heads " + nHeads + " / kv heads " + nKvHeads
                    + " do not give an even head size shared by whole kv groups");
        }
    }

    /** A small Llama with the usual defaults (theta 10000, eps 1e-5, untied), for tests and from-scratch runs. */
    public static ModelConfig llama(int dim, int hiddenDim, int nLayers, int nHeads, int nKvHeads, int vocabSize, int maxSeqLen) {
        return new ModelConfig("llama", dim, hiddenDim, nLayers, nHeads, nKvHeads, vocabSize, maxSeqLen, 1e-5f, 10000f, false, false);
    }

    public int headDim() { return dim / nHeads; }
    public int kvDim() { return nKvHeads * headDim(); }
    public int groupSize() { return nHeads / nKvHeads; }


    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads a Hugging Face config.json. */
    public static ModelConfig readHfConfig(Path file) {
        JsonNode n;
        try {
            n = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read config (" + e.getMessage() + ")", e);
        }
        String type = n.path("model_type").asText("");
        if (!type.equals("llama") && !type.equals("qwen2")) {
            throw new ModelLoadException(file, "unsupported architecture model_type='" + type + "' (supported: llama, qwen2)");
        }
        if (n.hasNonNull("rope_scaling")) { // would silently change every position's rotation
            throw new ModelLoadException(file, "rope_scaling " + n.get("rope_scaling") + " is not supported");
        }
        int dim = required(file, n, "hidden_size");
        int heads = required(file, n, "num_attention_heads");
        try {
            return new ModelConfig(type, dim, required(file, n, "intermediate_size"),
                    required(file, n, "num_hidden_layers"), heads,
                    n.path("num_key_value_heads").asInt(heads), required(file, n, "vocab_size"),
                    n.path("max_position_embeddings").asInt(2048),
                    (float) n.path("rms_norm_eps").asDouble(1e-6), (float) n.path("rope_theta").asDouble(10000.0),
                    n.path("tie_word_embeddings").asBoolean(type.equals("qwen2")),
                    type.equals("qwen2") || n.path("attention_bias").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(file, e.getMessage(), e);
        }
    }

    private static int required(Path file, JsonNode n, String field) {
        if (!n.path(field).canConvertToInt()) {
            throw new ModelLoadException(file, "missing or non-integer field '" + field + "'");
        }
        return n.get(field).asInt();
    }

    /** Writes this config as a Hugging Face config.json. */
    public void writeHfConfig(Path file) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.putArray("architectures").add(architecture.equals("qwen2") ? "Qwen2ForCausalLM" : "LlamaForCausalLM");
        n.put("model_type", architecture);
        n.put("hidden_size", dim);
        n.put("intermediate_size", hiddenDim);
        n.put("num_hidden_layers", nLayers);
        n.put("num_attention_heads", nHeads);
        n.put("num_key_value_heads", nKvHeads);
        n.put("vocab_size", vocabSize);
        n.put("max_position_embeddings", maxSeqLen);
        n.put("rms_norm_eps", normEps);
        n.put("rope_theta", ropeTheta);
        n.put("tie_word_embeddings", tiedEmbeddings);
        if (architecture.equals("llama")) {
            n.put("attention_bias", qkvBias);
        }
        n.put("hidden_act", "silu");
        n.put("torch_dtype", "float32");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n));
    }
}
