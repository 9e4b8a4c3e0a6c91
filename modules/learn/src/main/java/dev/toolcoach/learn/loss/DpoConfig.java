package dev.toolcoach.learn.loss;

import java.util.Objects;

/**
 * DPO hyper-parameters.
 *
 * @param beta            strength of the implicit KL constraint
 * @param labelSmoothing  assumed probability that a preference label is flipped (sigmoid only)
 * @param variant         sigmoid or IPO
 * @param pairMode        how pairs are drawn from a group
 * @param minMargin       minimum reward gap of a pair; pairs are never ties even when this is 0
 */
public record DpoConfig(double beta, double labelSmoothing, Variant variant, PairMode pairMode, double minMargin) {

    public static DpoConfig defaults() {
        return new DpoConfig(0.1, 0.0, Variant.SIGMOID, PairMode.BEST_VS_WORST, 0.0);
    }

    public DpoConfig {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(pairMode, "pairMode");
        if (beta <= 0 || labelSmoothing < 0 || labelSmoothing >= 0.5 || minMargin < 0) {
            throw new IllegalArgumentException("need beta > 0, 0 <= labelSmoothing < 0.5, minMargin >= 0; got "
                    + beta + ", " + labelSmoothing + ", " + minMargin);
        }
    }

    /** The preference loss applied to the implicit reward margin h. */
    public enum Variant {
        /** -log sigmoid(beta h), with optional label smoothing (conservative DPO). */
        SIGMOID,
        /** (h - 1 / (2 beta))^2 on length-averaged log-probs (IPO). */
        IPO
    }

    /** Which (chosen, rejected) pairs a scored group yields. */
    public enum PairMode {
        /** One pair: the highest against the lowest reward. */
        BEST_VS_WORST,
        /** Every ordered pair whose reward gap reaches the minimum margin. */
        ALL_PAIRS
    }
}
