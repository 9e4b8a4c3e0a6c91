package dev.toolcoach.model.io;

/** Hugging Face tensor names of the Llama/Qwen2 family; the one naming scheme used inside this module. */
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
            case "q_proj", "k_proj", "v_proj", "o_proj" -> "self_attn";
            case "gate_proj", "up_proj", "down_proj" -> "mlp";
            default -> throw new IllegalArgumentException("unknown projection " + proj);
        };
        return layer(layer, block + "." + proj);
    }
}
