package dev.toolcoach.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.trace.UntrustedJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Set;

/**
 * Reads a Hugging Face config.json into a {@link ModelConfig} with the defaults of the family's Transformers config
 * class, and refuses by name whatever would change the forward but is not implemented (an unknown model_type or
 * rope type, a sliding window this project does not honour, a partial rotary factor outside Phi-3, quantisation, an
 * activation other than SiLU). The shape fields are required: Transformers would fall back to its 7B defaults, which
 * only ever surfaces later as a tensor shape mismatch.
 */
final class HfConfigReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double DEFAULT_THETA = 10000.0;
    /** Every rope_scaling / rope_parameters key some implemented type reads. */
    private static final Set<String> ROPE_KEYS = Set.of("rope_type", "type", "rope_theta", "factor", "partial_rotary_factor",
            "original_max_position_embeddings", "attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
            "truncate", "short_factor", "long_factor", "low_freq_factor", "high_freq_factor");

    private final Path file;
    private final JsonNode n;

    private HfConfigReader(Path file, JsonNode n) {
        this.file = file;
        this.n = n;
    }

    static ModelConfig read(Path file) {
        JsonNode n;
        try {
            n = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new ModelLoadException(file, "config is " + UntrustedJson.reason(e), e);
        } catch (IOException e) {
            throw new ModelLoadException(file, "cannot read config (" + e.getMessage() + ")", e);
        }
        if (n == null || !n.isObject()) {
            throw new ModelLoadException(file, "config is not a JSON object");
        }
        return new HfConfigReader(file, n).parse();
    }

    private ModelConfig parse() {
        ModelFamily family = ModelFamily.of(file, n.path("model_type").asText(""));
        refuseUnimplemented(family);
        int dim = required("hidden_size");
        int heads = required("num_attention_heads");
        int kvHeads = optionalInt(n, "num_key_value_heads", family.defaultKvHeads() > 0 ? family.defaultKvHeads() : heads);
        int headDim = optionalInt(n, "head_dim", family.defaultHeadDim() > 0 ? family.defaultHeadDim() : wholeHeadDim(dim, heads));
        int maxPositions = optionalInt(n, "max_position_embeddings", family.defaultMaxPositions());
        double partial = partialRotaryFactor(family);
        int rotaryDim = (int) (headDim * partial);
        Rope rope = rope(family, maxPositions, rotaryDim);
        boolean bias = family.readsAttentionBias() && optionalBoolean("attention_bias", false);
        try {
            return new ModelConfig(family, dim, required("intermediate_size"), required("num_hidden_layers"), heads, kvHeads,
                    headDim, required("vocab_size"), maxPositions, (float) optionalDouble(n, "rms_norm_eps", family.defaultNormEps()),
                    rope, rotaryDim, optionalBoolean("tie_word_embeddings", false), bias || family.alwaysQkvBias(), bias,
                    slidingWindow(family));
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(file, e.getMessage(), e);
        }
    }

    private void refuseUnimplemented(ModelFamily family) {
        if (n.hasNonNull("quantization_config")) {
            throw new ModelLoadException(file, "quantization_config is not supported (quantised checkpoints cannot be loaded)");
        }
        String act = n.path("hidden_act").asText("silu");
        if (!act.equals("silu")) {
            throw new ModelLoadException(file, "hidden_act '" + act + "' is not supported (only silu)");
        }
        if (family == ModelFamily.LLAMA && optionalBoolean("mlp_bias", false)) {
            throw new ModelLoadException(file, "mlp_bias=true is not supported");
        }
        if (family.hasSlidingWindowSwitch() && optionalBoolean("use_sliding_window", false)) {
            throw new ModelLoadException(file, "use_sliding_window=true is not supported (per-layer sliding windows after max_window_layers)");
        }
        JsonNode layerTypes = n.path("layer_types");
        if (layerTypes.isArray() && !family.honoursSlidingWindow()) {
            for (JsonNode t : layerTypes) {
                if (!t.asText().equals("full_attention")) {
                    throw new ModelLoadException(file, "layer_types entry '" + t.asText() + "' is not supported (only full_attention)");
                }
            }
        }
    }

    /** 0 (full attention) unless the family honours a window and the config sets one (Mistral's class default is 4096). */
    private int slidingWindow(ModelFamily family) {
        if (!family.honoursSlidingWindow()) {
            return 0;
        }
        if (!n.has("sliding_window")) {
            return family == ModelFamily.MISTRAL ? 4096 : 0;
        }
        JsonNode w = n.get("sliding_window");
        if (w.isNull()) {
            return 0;
        }
        if (!w.canConvertToInt() || w.asInt() <= 0) {
            throw new ModelLoadException(file, "sliding_window " + w + " is not a positive integer");
        }
        return w.asInt();
    }

    private double partialRotaryFactor(ModelFamily family) {
        JsonNode params = ropeParameters();
        double partial = params.has("partial_rotary_factor")
                ? number(params, "rope_parameters.partial_rotary_factor")
                : optionalDouble(n, "partial_rotary_factor", 1.0);
        if (partial != 1.0 && !family.partialRotary()) {
            throw new ModelLoadException(file, "partial_rotary_factor " + partial + " is not supported for model_type " + family.modelType());
        }
        if (!(partial > 0 && partial <= 1)) {
            throw new ModelLoadException(file, "partial_rotary_factor " + partial + " is outside (0, 1]");
        }
        return partial;
    }

    /** Transformers v5 folds rope_scaling into rope_parameters; a v4 rope_scaling wins when both are there. */
    private JsonNode ropeParameters() {
        for (String field : new String[] {"rope_scaling", "rope_parameters"}) {
            if (n.hasNonNull(field) && !n.get(field).isObject()) {
                throw new ModelLoadException(file, field + " is not a JSON object: " + n.get(field));
            }
        }
        JsonNode scaling = n.path("rope_scaling");
        if (scaling.isObject() && !scaling.isEmpty()) {
            return scaling;
        }
        JsonNode params = n.path("rope_parameters");
        return params.isObject() ? params : JSON.createObjectNode();
    }

    private String ropeField() {
        JsonNode scaling = n.path("rope_scaling");
        return scaling.isObject() && !scaling.isEmpty() ? "rope_scaling" : "rope_parameters";
    }

    private Rope rope(ModelFamily family, int maxPositions, int rotaryDim) {
        JsonNode p = ropeParameters();
        String field = ropeField();
        for (Iterator<String> it = p.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!ROPE_KEYS.contains(key)) {
                throw new ModelLoadException(file, field + "." + key + " is not supported");
            }
        }
        double theta = p.hasNonNull("rope_theta") ? number(p, field + ".rope_theta") : optionalDouble(n, "rope_theta", DEFAULT_THETA);
        String type = p.path("rope_type").asText(p.path("type").asText("default"));
        if (family == ModelFamily.PHI3 && !p.has("rope_type") && (type.equals("su") || type.equals("yarn"))) {
            type = "longrope"; // Phi3Config's names for it in the first Phi-3 128k configs
        }
        switch (type) {
            case "default":
                return new Rope.Default(theta);
            case "linear":
                return new Rope.Linear(theta, number(p, field + ".factor"));
            case "dynamic":
                return new Rope.Dynamic(theta, number(p, field + ".factor"), maxPositions);
            case "yarn": {
                int original = originalMaxPositions(family, p, maxPositions);
                double factor = p.hasNonNull("factor") ? number(p, field + ".factor") : maxPositions / (double) original;
                return new Rope.Yarn(theta, factor, original, optionalDouble(p, "attention_factor", Double.NaN),
                        nonZero(p, "beta_fast", 32), nonZero(p, "beta_slow", 1), optionalDouble(p, "mscale", 0),
                        optionalDouble(p, "mscale_all_dim", 0), p.path("truncate").asBoolean(true));
            }
            case "longrope": {
                int original = originalMaxPositions(family, p, maxPositions);
                double factor = p.hasNonNull("factor") ? number(p, field + ".factor") : maxPositions / (double) original;
                return new Rope.LongRope(theta, factors(p, field, "short_factor", rotaryDim), factors(p, field, "long_factor", rotaryDim),
                        factor, original, optionalDouble(p, "attention_factor", Double.NaN));
            }
            case "llama3":
                return new Rope.Llama3(theta, number(p, field + ".factor"), number(p, field + ".low_freq_factor"),
                        number(p, field + ".high_freq_factor"), originalMaxPositions(family, p, maxPositions));
            default:
                throw new ModelLoadException(file, field + ".rope_type '" + type
                        + "' is not supported (supported: default, linear, dynamic, yarn, longrope, llama3)");
        }
    }

    /** A top-level original_max_position_embeddings wins (Phi-3 keeps it there), then the rope dict's, then max_position_embeddings. */
    private int originalMaxPositions(ModelFamily family, JsonNode p, int maxPositions) {
        if (n.has("original_max_position_embeddings") || family.hasOriginalMaxPositions()) {
            return optionalInt(n, "original_max_position_embeddings", 4096);
        }
        return optionalInt(p, "original_max_position_embeddings", maxPositions);
    }

    private double[] factors(JsonNode p, String field, String key, int rotaryDim) {
        JsonNode a = p.path(key);
        if (!a.isArray()) {
            throw new ModelLoadException(file, "missing field '" + field + "." + key + "'");
        }
        if (a.size() != rotaryDim / 2) {
            throw new ModelLoadException(file, field + "." + key + " has " + a.size() + " entries but the rotary dimension "
                    + rotaryDim + " needs " + rotaryDim / 2);
        }
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            if (!a.get(i).isNumber()) {
                throw new ModelLoadException(file, field + "." + key + "[" + i + "] is not a number");
            }
            out[i] = a.get(i).asDouble();
        }
        return out;
    }

    /** Transformers reads beta_fast/beta_slow with {@code or}: absent, null or 0 all give the default. */
    private double nonZero(JsonNode p, String key, double dflt) {
        double v = optionalDouble(p, key, 0);
        return v == 0 ? dflt : v;
    }

    private int required(String field) {
        if (!n.path(field).canConvertToInt() || !n.get(field).isIntegralNumber()) {
            throw new ModelLoadException(file, "missing or non-integer field '" + field + "'");
        }
        return n.get(field).asInt();
    }

    private static int wholeHeadDim(int dim, int heads) {
        return heads > 0 ? dim / heads : 0;
    }

    private double number(JsonNode p, String path) {
        String key = path.substring(path.lastIndexOf('.') + 1);
        JsonNode v = p.path(key);
        if (!v.isNumber()) {
            throw new ModelLoadException(file, (v.isMissingNode() || v.isNull() ? "missing field '" : "non-numeric field '") + path + "'");
        }
        return v.asDouble();
    }

    /** A null value counts as absent, as Python's None does for a config class argument. */
    private int optionalInt(JsonNode p, String key, int dflt) {
        JsonNode v = p.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber()) {
            throw new ModelLoadException(file, "field '" + key + "' is not an integer: " + v);
        }
        return v.asInt();
    }

    private double optionalDouble(JsonNode p, String key, double dflt) {
        JsonNode v = p.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isNumber()) {
            throw new ModelLoadException(file, "field '" + key + "' is not a number: " + v);
        }
        return v.asDouble();
    }

    private boolean optionalBoolean(String key, boolean dflt) {
        JsonNode v = n.path(key);
        if (v.isMissingNode() || v.isNull()) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw new ModelLoadException(file, "field '" + key + "' is not a boolean: " + v);
        }
        return v.asBoolean();
    }
}
