package dev.toolcoach.model.config;

import dev.toolcoach.model.io.ModelLoadException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The decoder families this project runs, one per Hugging Face {@code model_type}: what each one's config.json
 * means (defaults as Transformers' config classes), how its checkpoint names its tensors, which forward features
 * it has, and the chat template and native tool-call format its instruct models use.
 *
 * <p>Features per family (Transformers' modeling code): llama: optional q/k/v/o bias ({@code attention_bias}),
 * explicit {@code head_dim}; qwen2: q/k/v bias; qwen3: per-head RMSNorm on q and k before RoPE, explicit
 * {@code head_dim} (default 128), optional q/k/v/o bias; mistral: sliding-window attention; phi3: fused
 * {@code qkv_proj} and {@code gate_up_proj}, partial rotary embedding, sliding window. All: RMSNorm, SwiGLU, rotate-half
 * RoPE with every {@link Rope} type, grouped-query attention, optional tied embeddings.
 */
public enum ModelFamily {
    LLAMA("llama", "LlamaForCausalLM", ChatTemplateKind.LLAMA3, "llama3-json", 2048, 1e-6, 0, 0),
    QWEN2("qwen2", "Qwen2ForCausalLM", ChatTemplateKind.CHATML, "hermes", 32768, 1e-6, 32, 0),
    QWEN3("qwen3", "Qwen3ForCausalLM", ChatTemplateKind.CHATML, "hermes", 32768, 1e-6, 32, 128),
    MISTRAL("mistral", "MistralForCausalLM", ChatTemplateKind.MISTRAL, "mistral", 4096 * 32, 1e-6, 8, 0),
    PHI3("phi3", "Phi3ForCausalLM", ChatTemplateKind.PHI, "phi", 4096, 1e-5, 0, 0);

    /** The built-in chat format a folder without its own chat template falls back to. */
    public enum ChatTemplateKind { CHATML, LLAMA3, MISTRAL, PHI }

    private final String modelType;
    private final String architecture;
    private final ChatTemplateKind chatTemplate;
    private final String toolCallFormat;
    private final int defaultMaxPositions;
    private final double defaultNormEps;
    private final int defaultKvHeads;
    private final int defaultHeadDim;

    ModelFamily(String modelType, String architecture, ChatTemplateKind chatTemplate, String toolCallFormat,
                int defaultMaxPositions, double defaultNormEps, int defaultKvHeads, int defaultHeadDim) {
        this.modelType = modelType;
        this.architecture = architecture;
        this.chatTemplate = chatTemplate;
        this.toolCallFormat = toolCallFormat;
        this.defaultMaxPositions = defaultMaxPositions;
        this.defaultNormEps = defaultNormEps;
        this.defaultKvHeads = defaultKvHeads;
        this.defaultHeadDim = defaultHeadDim;
    }

    /** The family of a config.json's {@code model_type}; anything else is refused by name. */
    public static ModelFamily of(Path file, String modelType) {
        for (ModelFamily f : values()) {
            if (f.modelType.equals(modelType)) {
                return f;
            }
        }
        throw new ModelLoadException(file, "unsupported model_type '" + modelType + "' (supported: " + supported() + ")");
    }

    /** The family of a model_type in code (not from a file); an unknown one is an {@link IllegalArgumentException}. */
    public static ModelFamily of(String modelType) {
        for (ModelFamily f : values()) {
            if (f.modelType.equals(modelType)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unsupported architecture '" + modelType + "' (supported: " + supported() + ")");
    }

    private static String supported() {
        return Arrays.stream(values()).map(ModelFamily::modelType).collect(Collectors.joining(", "));
    }

    /** Hugging Face {@code model_type}. */
    public String modelType() {
        return modelType;
    }

    /** The {@code architectures} entry written into config.json. */
    public String architecture() {
        return architecture;
    }

    /** The chat format this family's instruct models use when the folder carries no template. */
    public ChatTemplateKind defaultChatTemplate() {
        return chatTemplate;
    }

    /**
     * The name of the tool-call format this family's instruct models were trained on: "hermes"
     * ({@code <tool_call>{"name", "arguments"}</tool_call>}, Qwen2.5/Qwen3), "llama3-json" ({@code {"name",
     * "parameters"}}, results under the {@code ipython} role), "mistral" ({@code [TOOL_CALLS][{"name", "arguments"}]}),
     * "phi" (Phi-4-mini: {@code functools[{"name", "arguments"}]}, tools as JSON in the system turn). The agent module
     * maps the name to its codec.
     */
    public String toolCallFormat() {
        return toolCallFormat;
    }

    int defaultMaxPositions() {
        return defaultMaxPositions;
    }

    double defaultNormEps() {
        return defaultNormEps;
    }

    /** Transformers' default num_key_value_heads; 0 means "as many as attention heads". */
    int defaultKvHeads() {
        return defaultKvHeads;
    }

    /** Transformers' default head_dim; 0 means hidden_size / num_attention_heads. */
    int defaultHeadDim() {
        return defaultHeadDim;
    }

    /** q/k/v projections always carry a bias (Qwen2), whatever attention_bias says. */
    public boolean alwaysQkvBias() {
        return this == QWEN2;
    }

    /** {@code attention_bias} is a config field of this family and puts a bias on q, k, v and o. */
    public boolean readsAttentionBias() {
        return this == LLAMA || this == QWEN3;
    }

    /** Per-head RMSNorm on queries and keys before RoPE ({@code q_norm}, {@code k_norm}). */
    public boolean qkNorm() {
        return this == QWEN3;
    }

    /** The checkpoint holds q/k/v as one {@code qkv_proj} and gate/up as one {@code gate_up_proj}. */
    public boolean fusedProjections() {
        return this == PHI3;
    }

    /** {@code sliding_window} applies to every layer and is honoured in the attention mask. */
    public boolean honoursSlidingWindow() {
        return this == MISTRAL || this == PHI3;
    }

    /** Has the Qwen {@code use_sliding_window} switch (per-layer windows this project does not implement). */
    boolean hasSlidingWindowSwitch() {
        return this == QWEN2 || this == QWEN3;
    }

    /** Rotates only a fraction of each head ({@code partial_rotary_factor}). */
    public boolean partialRotary() {
        return this == PHI3;
    }

    /** Transformers' Phi3Config always has {@code original_max_position_embeddings} (default 4096). */
    boolean hasOriginalMaxPositions() {
        return this == PHI3;
    }
}
