package dev.toolcoach.model.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.Objects;

/**
 * Rotary position embedding parameters, one record per Transformers {@code rope_type}; each computes its inverse
 * frequencies and attention scaling as Transformers' {@code modeling_rope_utils} does ({@code _compute_*_parameters}).
 * The rotary dimension (head_dim × partial_rotary_factor) is the caller's: it belongs to the attention, not the type.
 */
public sealed interface Rope {
    double theta();

    /**
     * Inverse frequencies for the {@code rotaryDim / 2} rotated pairs when the sequence is {@code seqLen} long
     * (only dynamic and longrope depend on it).
     */
    double[] invFreq(int rotaryDim, int seqLen);

    /** Factor on cos and sin (Transformers' {@code attention_scaling}); 1 for most types. */
    default double attentionScaling() {
        return 1.0;
    }

    /** True when {@link #invFreq} changes with the sequence length. */
    default boolean lengthDependent() {
        return false;
    }

    /** Writes this rope as Transformers v4 fields: top-level {@code rope_theta} and a {@code rope_scaling} object. */
    void writeTo(ObjectNode config);

    /** The name in {@code rope_type}. */
    String type();

    private static double[] base(double theta, int dim) {
        double[] f = new double[dim / 2];
        for (int i = 0; i < f.length; i++) {
            f[i] = 1.0 / Math.pow(theta, (2.0 * i) / dim);
        }
        return f;
    }

    private static ObjectNode scaling(ObjectNode config, Rope rope) {
        config.put("rope_theta", rope.theta());
        ObjectNode s = config.putObject("rope_scaling");
        s.put("rope_type", rope.type());
        return s;
    }

    /** The original RoPE. */
    record Default(double theta) implements Rope {
        @Override
        public double[] invFreq(int rotaryDim, int seqLen) {
            // float arithmetic as llama2.c's run.c (and Transformers' float32 arange) does it, so greedy decoding of
            // llama2.c checkpoints matches run.c token for token
            double[] f = new double[rotaryDim / 2];
            for (int i = 0; i < f.length; i++) {
                f[i] = 1.0f / (float) Math.pow((float) theta, (2 * i) / (float) rotaryDim);
            }
            return f;
        }

        @Override
        public void writeTo(ObjectNode config) {
            config.put("rope_theta", theta);
        }

        @Override
        public String type() {
            return "default";
        }
    }

    /** Position interpolation: every frequency divided by {@code factor}. */
    record Linear(double theta, double factor) implements Rope {
        @Override
        public double[] invFreq(int rotaryDim, int seqLen) {
            double[] f = base(theta, rotaryDim);
            for (int i = 0; i < f.length; i++) {
                f[i] /= factor;
            }
            return f;
        }

        @Override
        public void writeTo(ObjectNode config) {
            scaling(config, this).put("factor", factor);
        }

        @Override
        public String type() {
            return "linear";
        }
    }

    /** Dynamic NTK: the base grows once the sequence is longer than {@code maxPositions}; below that it is the default. */
    record Dynamic(double theta, double factor, int maxPositions) implements Rope {
        @Override
        public double[] invFreq(int rotaryDim, int seqLen) {
            int len = Math.max(seqLen, maxPositions);
            double b = theta * Math.pow(factor * len / maxPositions - (factor - 1), rotaryDim / (rotaryDim - 2.0));
            return base(b, rotaryDim);
        }

        @Override
        public boolean lengthDependent() {
            return true;
        }

        @Override
        public void writeTo(ObjectNode config) {
            scaling(config, this).put("factor", factor);
        }

        @Override
        public String type() {
            return "dynamic";
        }
    }

    /**
     * YaRN: frequencies ramp from extrapolated (high frequencies) to interpolated (low) between the correction
     * dimensions of {@code betaFast} and {@code betaSlow}; cos/sin are scaled by the attention factor.
     *
     * @param attentionFactor NaN when the config leaves it to be inferred from factor (and mscale, mscale_all_dim)
     * @param mscale          0 when absent
     * @param mscaleAllDim    0 when absent
     */
    record Yarn(double theta, double factor, int originalMaxPositions, double attentionFactor, double betaFast,
                double betaSlow, double mscale, double mscaleAllDim, boolean truncate) implements Rope {
        @Override
        public double[] invFreq(int dim, int seqLen) {
            double low = correctionDim(betaFast, dim);
            double high = correctionDim(betaSlow, dim);
            if (truncate) {
                low = Math.floor(low);
                high = Math.ceil(high);
            }
            low = Math.max(low, 0);
            high = Math.min(high, dim - 1);
            if (low == high) {
                high += 0.001; // Transformers' guard against a zero-width ramp
            }
            double[] f = new double[dim / 2];
            for (int i = 0; i < f.length; i++) {
                double posFreq = Math.pow(theta, (2.0 * i) / dim);
                double ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
                double extrapolation = 1 - ramp;
                f[i] = (1 / (factor * posFreq)) * (1 - extrapolation) + (1 / posFreq) * extrapolation;
            }
            return f;
        }

        private double correctionDim(double rotations, int dim) {
            return dim * Math.log(originalMaxPositions / (rotations * 2 * Math.PI)) / (2 * Math.log(theta));
        }

        @Override
        public double attentionScaling() {
            if (!Double.isNaN(attentionFactor)) {
                return attentionFactor;
            }
            if (mscale != 0 && mscaleAllDim != 0) {
                return mscale(factor, mscale) / mscale(factor, mscaleAllDim);
            }
            return mscale(factor, 1);
        }

        private static double mscale(double scale, double m) {
            return scale <= 1 ? 1.0 : 0.1 * m * Math.log(scale) + 1.0;
        }

        @Override
        public void writeTo(ObjectNode config) {
            ObjectNode s = scaling(config, this);
            s.put("factor", factor);
            s.put("original_max_position_embeddings", originalMaxPositions);
            if (!Double.isNaN(attentionFactor)) {
                s.put("attention_factor", attentionFactor);
            }
            s.put("beta_fast", betaFast);
            s.put("beta_slow", betaSlow);
            if (mscale != 0) {
                s.put("mscale", mscale);
            }
            if (mscaleAllDim != 0) {
                s.put("mscale_all_dim", mscaleAllDim);
            }
            if (!truncate) {
                s.put("truncate", false);
            }
        }

        @Override
        public String type() {
            return "yarn";
        }
    }

    /**
     * LongRoPE (Phi-3): per-pair rescale factors, the short ones up to {@code originalMaxPositions}, the long ones
     * beyond; cos/sin scaled by sqrt(1 + ln(factor) / ln(originalMaxPositions)) unless an attention factor is given.
     *
     * @param factor          max_position_embeddings / original_max_position_embeddings unless the config gives one
     * @param attentionFactor NaN when inferred
     */
    record LongRope(double theta, double[] shortFactor, double[] longFactor, double factor, int originalMaxPositions,
                    double attentionFactor) implements Rope {
        @Override
        public double[] invFreq(int dim, int seqLen) {
            double[] ext = seqLen > originalMaxPositions ? longFactor : shortFactor;
            double[] f = new double[dim / 2];
            for (int i = 0; i < f.length; i++) {
                f[i] = 1.0 / (ext[i] * Math.pow(theta, (2.0 * i) / dim));
            }
            return f;
        }

        @Override
        public boolean lengthDependent() {
            return true;
        }

        @Override
        public double attentionScaling() {
            if (!Double.isNaN(attentionFactor)) {
                return attentionFactor;
            }
            return factor <= 1.0 ? 1.0 : Math.sqrt(1 + Math.log(factor) / Math.log(originalMaxPositions));
        }

        @Override
        public void writeTo(ObjectNode config) {
            ObjectNode s = scaling(config, this);
            s.putPOJO("short_factor", shortFactor);
            s.putPOJO("long_factor", longFactor);
            if (!Double.isNaN(attentionFactor)) {
                s.put("attention_factor", attentionFactor);
            }
            // factor is left out: Transformers derives it from max_position_embeddings / original_max_position_embeddings
            config.put("original_max_position_embeddings", originalMaxPositions);
        }

        @Override
        public String type() {
            return "longrope";
        }

        // arrays compare by content, so two configs read from the same file are equal
        @Override
        public boolean equals(Object o) {
            return o instanceof LongRope l && Double.compare(theta, l.theta) == 0 && Arrays.equals(shortFactor, l.shortFactor)
                    && Arrays.equals(longFactor, l.longFactor) && Double.compare(factor, l.factor) == 0
                    && originalMaxPositions == l.originalMaxPositions && Double.compare(attentionFactor, l.attentionFactor) == 0;
        }

        @Override
        public int hashCode() {
            return Objects.hash(theta, Arrays.hashCode(shortFactor), Arrays.hashCode(longFactor), factor, originalMaxPositions, attentionFactor);
        }

        @Override
        public String toString() {
            return "LongRope[theta=" + theta + ", shortFactor=" + Arrays.toString(shortFactor) + ", longFactor="
                    + Arrays.toString(longFactor) + ", factor=" + factor + ", originalMaxPositions=" + originalMaxPositions
                    + ", attentionFactor=" + attentionFactor + "]";
        }
    }

    /** Llama 3.1: low frequencies divided by {@code factor}, high ones kept, a smooth blend in between. */
    record Llama3(double theta, double factor, double lowFreqFactor, double highFreqFactor, int originalMaxPositions)
            implements Rope {
        @Override
        public double[] invFreq(int rotaryDim, int seqLen) {
            double[] f = base(theta, rotaryDim);
            double lowFreqWavelen = originalMaxPositions / lowFreqFactor;
            double highFreqWavelen = originalMaxPositions / highFreqFactor;
            for (int i = 0; i < f.length; i++) {
                double wavelen = 2 * Math.PI / f[i];
                if (wavelen > lowFreqWavelen) {
                    f[i] /= factor;
                } else if (wavelen >= highFreqWavelen) {
                    double smooth = (originalMaxPositions / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
                    f[i] = (1 - smooth) * f[i] / factor + smooth * f[i];
                }
            }
            return f;
        }

        @Override
        public void writeTo(ObjectNode config) {
            ObjectNode s = scaling(config, this);
            s.put("factor", factor);
            s.put("low_freq_factor", lowFreqFactor);
            s.put("high_freq_factor", highFreqFactor);
            s.put("original_max_position_embeddings", originalMaxPositions);
        }

        @Override
        public String type() {
            return "llama3";
        }
    }
}
