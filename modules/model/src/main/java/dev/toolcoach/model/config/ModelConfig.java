package dev.toolcoach.model.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Shape and forward features of a decoder of one {@link ModelFamily}.
 *
 * @param headDim        per-head width (Qwen3 and some Llama/Mistral configs give it explicitly; else dim / heads)
 * @param rotaryDim      leading dimensions of each head that RoPE rotates (head_dim × partial_rotary_factor)
 * @param qkvBias        q/k/v projections carry a bias
 * @param oBias          the output projection carries a bias
 * @param slidingWindow  a query sees only keys fewer than this many positions back; 0 for full attention
 */
public record ModelConfig(ModelFamily family, int dim, int hiddenDim, int nLayers, int nHeads, int nKvHeads,
                          int headDim, int vocabSize, int maxSeqLen, float normEps, Rope rope, int rotaryDim,
                          boolean tiedEmbeddings, boolean qkvBias, boolean oBias, int slidingWindow) {

    public ModelConfig {
        if (dim <= 0 || hiddenDim <= 0 || nLayers <= 0 || nHeads <= 0 || nKvHeads <= 0 || vocabSize <= 0 || maxSeqLen <= 0
                || headDim <= 0) {
            throw new IllegalArgumentException("model sizes must be positive");
        }
        if (nHeads % nKvHeads != 0 || headDim % 2 != 0) {
            throw new IllegalArgumentException("heads " + nHeads + " / kv heads " + nKvHeads + " / head_dim " + headDim
                    + " do not give an even head size shared by whole kv groups");
        }
        if (rotaryDim <= 0 || rotaryDim > headDim || rotaryDim % 2 != 0) {
            throw new IllegalArgumentException("rotary dimension " + rotaryDim + " must be even and within head_dim " + headDim);
        }
        if (slidingWindow < 0) {
            throw new IllegalArgumentException("sliding window " + slidingWindow + " is negative");
        }
    }

    /**
     * A plain Llama or Qwen2 (default RoPE, head_dim = dim / heads, no sliding window), as tests and from-scratch
     * runs build them.
     *
     * @param architecture "llama" or "qwen2"
     */
    public ModelConfig(String architecture, int dim, int hiddenDim, int nLayers, int nHeads, int nKvHeads, int vocabSize,
                       int maxSeqLen, float normEps, float ropeTheta, boolean tiedEmbeddings, boolean qkvBias) {
        this(ModelFamily.of(architecture), dim, hiddenDim, nLayers, nHeads, nKvHeads, wholeHeads(dim, nHeads), vocabSize,
                maxSeqLen, normEps, new Rope.Default(ropeTheta), wholeHeads(dim, nHeads), tiedEmbeddings, qkvBias, false, 0);
    }

    private static int wholeHeads(int dim, int nHeads) {
        if (nHeads <= 0 || dim % nHeads != 0) {
            throw new IllegalArgumentException("dim " + dim + " is not a whole number of " + nHeads + " heads");
        }
        return dim / nHeads;
    }

    /** A small Llama with the usual defaults (theta 10000, eps 1e-5, untied), for tests and from-scratch runs. */
    public static ModelConfig llama(int dim, int hiddenDim, int nLayers, int nHeads, int nKvHeads, int vocabSize, int maxSeqLen) {
        return new ModelConfig("llama", dim, hiddenDim, nLayers, nHeads, nKvHeads, vocabSize, maxSeqLen, 1e-5f, 10000f, false, false);
    }

    /** HF model_type. */
    public String architecture() {
        return family.modelType();
    }

    public float ropeTheta() {
        return (float) rope.theta();
    }

    /**
     * Positions the model runs at: max_position_embeddings, or factor times that for dynamic NTK rope, whose
     * purpose is to stretch past it.
     */
    public int contextLength() {
        return rope instanceof Rope.Dynamic d ? (int) (maxSeqLen * d.factor()) : maxSeqLen;
    }

    /** Width of all query heads together (dim unless head_dim is explicit). */
    public int qDim() {
        return nHeads * headDim;
    }

    public int kvDim() {
        return nKvHeads * headDim;
    }

    public int groupSize() {
        return nHeads / nKvHeads;
    }

    /** Queries and keys get a per-head RMSNorm before RoPE (Qwen3). */
    public boolean qkNorm() {
        return family.qkNorm();
    }

    /** The same config with another RoPE (and rotary dimension), e.g. to build a scaled-RoPE model in a test. */
    public ModelConfig withRope(Rope rope, int rotaryDim) {
        return new ModelConfig(family, dim, hiddenDim, nLayers, nHeads, nKvHeads, headDim, vocabSize, maxSeqLen, normEps,
                rope, rotaryDim, tiedEmbeddings, qkvBias, oBias, slidingWindow);
    }

    /** Reads a Hugging Face config.json; see {@link HfConfigReader} for what is refused. */
    public static ModelConfig readHfConfig(Path file) {
        return HfConfigReader.read(file);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes this config as a Hugging Face config.json that Transformers and {@link #readHfConfig} read back as this config. */
    public void writeHfConfig(Path file) throws IOException {
        ObjectNode n = JSON.createObjectNode();
        n.putArray("architectures").add(family.architecture());
        n.put("model_type", family.modelType());
        n.put("hidden_size", dim);
        n.put("intermediate_size", hiddenDim);
        n.put("num_hidden_layers", nLayers);
        n.put("num_attention_heads", nHeads);
        n.put("num_key_value_heads", nKvHeads);
        if (headDim != dim / nHeads || dim % nHeads != 0 || family.qkNorm()) {
            n.put("head_dim", headDim);
        }
        n.put("vocab_size", vocabSize);
        n.put("max_position_embeddings", maxSeqLen);
        n.put("rms_norm_eps", normEps);
        rope.writeTo(n);
        if (family.partialRotary()) {
            n.put("partial_rotary_factor", rotaryDim / (double) headDim);
            if (!n.has("original_max_position_embeddings")) { // Phi3Config's own default would be 4096
                n.put("original_max_position_embeddings", originalMaxPositions());
            }
        }
        n.put("tie_word_embeddings", tiedEmbeddings);
        if (family.readsAttentionBias()) {
            n.put("attention_bias", qkvBias);
        }
        if (family.honoursSlidingWindow()) {
            if (slidingWindow > 0) {
                n.put("sliding_window", slidingWindow);
            } else {
                n.putNull("sliding_window");
            }
        }
        if (family == ModelFamily.QWEN2 || family == ModelFamily.QWEN3) {
            n.put("use_sliding_window", false);
        }
        n.put("hidden_act", "silu");
        n.put("torch_dtype", "float32");
        Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(n));
    }

    private int originalMaxPositions() {
        if (rope instanceof Rope.Yarn y) {
            return y.originalMaxPositions();
        }
        if (rope instanceof Rope.Llama3 l) {
            return l.originalMaxPositions();
        }
        return rope instanceof Rope.LongRope l ? l.originalMaxPositions() : maxSeqLen;
    }
}
