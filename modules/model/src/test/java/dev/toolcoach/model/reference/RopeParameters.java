package dev.toolcoach.model.reference;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * RoPE inverse frequencies and the cos/sin attention factor, one reading of Transformers' {@code modeling_rope_utils.py}
 * (the v5 code, which also accepts v4 configs): {@code default}, {@code linear}, {@code dynamic}, {@code llama3},
 * {@code yarn}, {@code longrope}. Where v4 and v5 differ (v4 let {@code max/original_max} override an explicit yarn or
 * longrope {@code factor}; v5 keeps the explicit one) this follows v5; {@link TinyHfFolders} writes consistent values
 * so both readings agree on its folders.
 *
 * @param type                   rope_type ("default" when absent)
 * @param theta                  rope_theta
 * @param rotaryDim              int(head_dim * partial_rotary_factor): RoPE covers the first rotaryDim dims of a head
 * @param maxPositionEmbeddings  max_position_embeddings
 * @param originalMaxPositions   the pretraining length (llama3, yarn, longrope); max_position_embeddings when absent
 * @param factor                 scaling factor; null when absent (yarn and longrope then use max/original)
 * @param attentionFactor        explicit attention_factor, or null for the type's default
 * @param lowFreqFactor          llama3 low_freq_factor
 * @param highFreqFactor         llama3 high_freq_factor
 * @param betaFast               yarn beta_fast (32 when absent)
 * @param betaSlow               yarn beta_slow (1 when absent)
 * @param mscale                 yarn mscale or null
 * @param mscaleAllDim           yarn mscale_all_dim or null
 * @param truncate               yarn truncate (true when absent)
 * @param shortFactor            longrope short_factor (rotaryDim/2 values)
 * @param longFactor             longrope long_factor (rotaryDim/2 values)
 */
public record RopeParameters(String type, double theta, int rotaryDim, int maxPositionEmbeddings, int originalMaxPositions,
                             Double factor, Double attentionFactor, double lowFreqFactor, double highFreqFactor,
                             double betaFast, double betaSlow, Double mscale, Double mscaleAllDim, boolean truncate,
                             double[] shortFactor, double[] longFactor) {

    /**
     * Reads the rope fields of a config.json. v5 keeps everything in {@code rope_parameters}; v4 has a top-level
     * {@code rope_theta} and a {@code rope_scaling} dict (its type under "rope_type" or the older "type").
     * A top-level {@code original_max_position_embeddings} (Phi-3 keeps it there) wins over the dict's, as in
     * Transformers' {@code standardize_rope_params}.
     *
     * @param defaultOriginalMax the family's default for a missing top-level original_max_position_embeddings, or null
     */
    static RopeParameters parse(JsonNode config, String source, int headDim, int maxPositions, double defaultTheta,
                                Integer defaultOriginalMax) {
        JsonNode p = config.path("rope_parameters");
        String dictName = "rope_parameters";
        if (!p.isObject()) {
            p = config.path("rope_scaling");
            dictName = "rope_scaling";
        }
        if (!p.isObject() && !p.isMissingNode() && !p.isNull()) {
            throw new IllegalArgumentException(source + ": field '" + dictName + "' must be an object, got " + p);
        }
        String type = text(p, "rope_type", text(p, "type", "default"));
        double theta = number(p, "rope_theta", number(config, "rope_theta", defaultTheta));
        double partial = partialRotaryFactor(config, p, source);
        int rotaryDim = (int) (headDim * partial);
        Integer original = config.hasNonNull("original_max_position_embeddings")
                ? Integer.valueOf(config.get("original_max_position_embeddings").asInt())
                : p.hasNonNull("original_max_position_embeddings") ? Integer.valueOf(p.get("original_max_position_embeddings").asInt())
                : defaultOriginalMax;
        int originalMax = original == null ? maxPositions : original;
        Double factor = p.hasNonNull("factor") ? p.get("factor").asDouble() : null;
        double[] shortFactor = null;
        double[] longFactor = null;
        switch (type) {
            case "default" -> {
            }
            case "linear", "dynamic" -> require(factor, source, dictName, "factor");
            case "llama3" -> {
                require(factor, source, dictName, "factor");
                require(p.get("low_freq_factor"), source, dictName, "low_freq_factor");
                require(p.get("high_freq_factor"), source, dictName, "high_freq_factor");
            }
            case "yarn" -> {
                if (factor == null) {
                    throw new IllegalArgumentException(source + ": field '" + dictName + ".factor' is required for yarn");
                }
            }
            case "longrope" -> {
                shortFactor = factors(p, "short_factor", rotaryDim, source, dictName);
                longFactor = factors(p, "long_factor", rotaryDim, source, dictName);
            }
            default -> throw new IllegalArgumentException(source + ": field '" + dictName + ".rope_type' = '" + type
                    + "' is not one of default, linear, dynamic, llama3, yarn, longrope");
        }
        return new RopeParameters(type, theta, rotaryDim, maxPositions, originalMax, factor,
                p.hasNonNull("attention_factor") ? p.get("attention_factor").asDouble() : null,
                number(p, "low_freq_factor", 0), number(p, "high_freq_factor", 0),
                p.hasNonNull("beta_fast") ? p.get("beta_fast").asDouble() : 32,
                p.hasNonNull("beta_slow") ? p.get("beta_slow").asDouble() : 1,
                p.hasNonNull("mscale") ? p.get("mscale").asDouble() : null,
                p.hasNonNull("mscale_all_dim") ? p.get("mscale_all_dim").asDouble() : null,
                !p.hasNonNull("truncate") || p.get("truncate").asBoolean(),
                shortFactor, longFactor);
    }

    /** The unscaled frequencies theta^(-2i/dim), i = 0 .. dim/2-1. */
    static double[] defaultInvFreq(double theta, int dim) {
        double[] inv = new double[dim / 2];
        for (int i = 0; i < inv.length; i++) {
            inv[i] = 1.0 / Math.pow(theta, (2.0 * i) / dim);
        }
        return inv;
    }

    /**
     * The inverse frequencies for one forward whose highest position is {@code seqLen - 1}: Transformers' rotary
     * embedding recomputes dynamic and longrope frequencies from that length ({@code dynamic_rope_update}).
     */
    public double[] invFreq(int seqLen) {
        int dim = rotaryDim;
        return switch (type) {
            case "default" -> defaultInvFreq(theta, dim);
            case "linear" -> divide(defaultInvFreq(theta, dim), factor);
            case "dynamic" -> {
                // NTK-aware: the base grows once the sequence is longer than max_position_embeddings
                double len = Math.max(seqLen, maxPositionEmbeddings);
                double base = theta * Math.pow(factor * len / maxPositionEmbeddings - (factor - 1), dim / (dim - 2.0));
                yield defaultInvFreq(base, dim);
            }
            case "llama3" -> llama3(defaultInvFreq(theta, dim));
            case "yarn" -> yarn(dim);
            case "longrope" -> {
                double[] ext = seqLen > originalMaxPositions ? longFactor : shortFactor;
                double[] inv = defaultInvFreq(theta, dim);
                for (int i = 0; i < inv.length; i++) {
                    inv[i] /= ext[i];
                }
                yield inv;
            }
            default -> throw new IllegalStateException(type);
        };
    }

    /** The factor Transformers multiplies cos and sin by ({@code attention_scaling}). */
    public double attentionScaling() {
        return switch (type) {
            case "yarn" -> {
                if (attentionFactor != null) {
                    yield attentionFactor;
                }
                double f = effectiveFactor();
                yield mscale != null && mscaleAllDim != null && mscale != 0 && mscaleAllDim != 0
                        ? yarnMscale(f, mscale) / yarnMscale(f, mscaleAllDim) : yarnMscale(f, 1);
            }
            case "longrope" -> {
                if (attentionFactor != null) {
                    yield attentionFactor;
                }
                double f = effectiveFactor();
                yield f <= 1 ? 1.0 : Math.sqrt(1 + Math.log(f) / Math.log(originalMaxPositions));
            }
            default -> 1.0;
        };
    }

    private double effectiveFactor() {
        return factor != null ? factor : (double) maxPositionEmbeddings / originalMaxPositions;
    }

    private static double yarnMscale(double scale, double m) {
        return scale <= 1 ? 1.0 : 0.1 * m * Math.log(scale) + 1.0;
    }

    /** Llama 3.1: long wavelengths divided by factor, short ones kept, the band between blended smoothly. */
    private double[] llama3(double[] inv) {
        double lowFreqWavelen = originalMaxPositions / lowFreqFactor;
        double highFreqWavelen = originalMaxPositions / highFreqFactor;
        double[] out = new double[inv.length];
        for (int i = 0; i < inv.length; i++) {
            double wavelen = 2 * Math.PI / inv[i];
            if (wavelen < highFreqWavelen) {
                out[i] = inv[i];
            } else if (wavelen > lowFreqWavelen) {
                out[i] = inv[i] / factor;
            } else {
                double smooth = (originalMaxPositions / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
                out[i] = (1 - smooth) * inv[i] / factor + smooth * inv[i];
            }
        }
        return out;
    }

    /** YaRN: extrapolated frequencies below the correction range, interpolated above, a linear ramp between. */
    private double[] yarn(int dim) {
        double f = effectiveFactor();
        double low = correctionDim(betaFast, dim);
        double high = correctionDim(betaSlow, dim);
        if (truncate) {
            low = Math.floor(low);
            high = Math.ceil(high);
        }
        low = Math.max(low, 0);
        high = Math.min(high, dim - 1);
        if (low == high) {
            high += 0.001; // as Transformers, against a zero-width ramp
        }
        double[] extrapolation = defaultInvFreq(theta, dim);
        double[] out = new double[dim / 2];
        for (int i = 0; i < out.length; i++) {
            double ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
            double extrapolationWeight = 1 - ramp;
            out[i] = extrapolation[i] / f * (1 - extrapolationWeight) + extrapolation[i] * extrapolationWeight;
        }
        return out;
    }

    /** The dimension whose wavelength completes {@code rotations} turns over the original context. */
    private double correctionDim(double rotations, int dim) {
        return dim * Math.log(originalMaxPositions / (rotations * 2 * Math.PI)) / (2 * Math.log(theta));
    }

    private static double partialRotaryFactor(JsonNode config, JsonNode dict, String source) {
        boolean top = config.hasNonNull("partial_rotary_factor");
        boolean inner = dict.hasNonNull("partial_rotary_factor");
        if (top && inner && config.get("partial_rotary_factor").asDouble() != dict.get("partial_rotary_factor").asDouble()) {
            throw new IllegalArgumentException(source + ": field 'partial_rotary_factor' differs between the top level and the rope dict");
        }
        return top ? config.get("partial_rotary_factor").asDouble() : inner ? dict.get("partial_rotary_factor").asDouble() : 1.0;
    }

    private static double[] factors(JsonNode p, String field, int rotaryDim, String source, String dictName) {
        JsonNode a = p.path(field);
        if (!a.isArray() || a.size() != rotaryDim / 2) {
            throw new IllegalArgumentException(source + ": field '" + dictName + "." + field + "' must be a list of "
                    + rotaryDim / 2 + " numbers (rotary dim / 2), got " + a);
        }
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asDouble();
        }
        return out;
    }

    private static double[] divide(double[] v, double by) {
        for (int i = 0; i < v.length; i++) {
            v[i] /= by;
        }
        return v;
    }

    private static void require(Object value, String source, String dictName, String field) {
        if (value == null) {
            throw new IllegalArgumentException(source + ": field '" + dictName + "." + field + "' is required for this rope_type");
        }
    }

    private static String text(JsonNode n, String field, String otherwise) {
        return n.hasNonNull(field) ? n.get(field).asText() : otherwise;
    }

    private static double number(JsonNode n, String field, double otherwise) {
        return n.hasNonNull(field) ? n.get(field).asDouble() : otherwise;
    }
}
