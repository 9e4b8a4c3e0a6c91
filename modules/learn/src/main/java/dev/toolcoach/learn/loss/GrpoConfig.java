package dev.toolcoach.learn.loss;

import java.util.Objects;

/**
 * GRPO hyper-parameters.
 *
 * @param epsLow          lower clip range of the ratio (PPO)
 * @param epsHigh         upper clip range (DAPO clip-higher: larger than epsLow)
 * @param importanceCap   truncation of the importance weight for stale tokens; must be >= 1 + epsHigh
 * @param beta            weight of the k3 KL penalty to the reference policy (0 disables it)
 * @param aggregation     how token losses are combined
 * @param drGrpoLength    the constant length normaliser of {@link Aggregation#DR_GRPO}
 * @param advantageEps    added to the group's reward std before dividing
 * @param epochs          optimisation passes over each batch (the ratio stays against behaviour log-probs)
 * @param ratioBaseline   what the ratio is taken against
 * @param temperature     the rollouts' sampling temperature: the policy's log-probs are taken at it (logits / T), as the
 *                        behaviour log-probs were, so the ratio is 1 on fresh rollouts and the gradient is that of the
 *                        tempered policy that sampled them (verl's convention); greedy decoding is the same at any T
 * @param entropyBonus    weight of the policy's entropy per generated token subtracted from the loss (verl's
 *                        entropy_coeff): pushes the policy to keep sampling other tokens; 0 disables it
 */
public record GrpoConfig(double epsLow, double epsHigh, double importanceCap, double beta,
                         Aggregation aggregation, int drGrpoLength, double advantageEps, int epochs,
                         RatioBaseline ratioBaseline, float temperature, double entropyBonus) {

    public static GrpoConfig defaults() {
        return new GrpoConfig(0.2, 0.28, 2.0, 0.0, Aggregation.TOKEN_MEAN, 1024, 1e-4, 1, RatioBaseline.BEHAVIOUR, 1f, 0.0);
    }

    public GrpoConfig {
        Objects.requireNonNull(aggregation, "aggregation");
        Objects.requireNonNull(ratioBaseline, "ratioBaseline");
        if (epsLow <= 0 || epsLow >= 1 || epsHigh <= 0) {
            throw new IllegalArgumentException("clip range needs 0 < epsLow < 1 and epsHigh > 0, got "
                    + epsLow + "/" + epsHigh);
        }
        if (importanceCap < 1 + epsHigh) {
            throw new IllegalArgumentException("importance cap " + importanceCap + " is below the upper clip bound "
                    + (1 + epsHigh));
        }
        if (beta < 0 || drGrpoLength < 1 || advantageEps <= 0 || epochs < 1 || !(temperature > 0) || !(entropyBonus >= 0)) {
            throw new IllegalArgumentException("need beta >= 0, drGrpoLength >= 1, advantageEps > 0, epochs >= 1, temperature > 0, "
                    + "entropyBonus >= 0");
        }
    }

    public GrpoConfig withAggregation(Aggregation a) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, beta, a, drGrpoLength, advantageEps, epochs, ratioBaseline, temperature, entropyBonus);
    }

    public GrpoConfig withBeta(double b) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, b, aggregation, drGrpoLength, advantageEps, epochs, ratioBaseline, temperature, entropyBonus);
    }

    public GrpoConfig withEpochs(int e) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, beta, aggregation, drGrpoLength, advantageEps, e, ratioBaseline, temperature, entropyBonus);
    }

    public GrpoConfig withRatioBaseline(RatioBaseline r) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, beta, aggregation, drGrpoLength, advantageEps, epochs, r, temperature, entropyBonus);
    }

    public GrpoConfig withTemperature(float t) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, beta, aggregation, drGrpoLength, advantageEps, epochs, ratioBaseline, t, entropyBonus);
    }

    public GrpoConfig withEntropyBonus(double bonus) {
        return new GrpoConfig(epsLow, epsHigh, importanceCap, beta, aggregation, drGrpoLength, advantageEps, epochs, ratioBaseline, temperature, bonus);
    }

    /** How per-token losses become one batch loss. */
    public enum Aggregation {
        /** Sum over all generated tokens of the batch / their count (DAPO): long answers weigh more. */
        TOKEN_MEAN,
        /** Mean over sequences of each sequence's token mean (original GRPO). */
        SEQUENCE_MEAN,
        /** Sum over tokens / (sequences x a constant length) with unnormalised advantages (Dr.GRPO). */
        DR_GRPO
    }

    /** The denominator of the GRPO importance ratio. */
    public enum RatioBaseline {
        /** The log-prob recorded by the policy that sampled the token: correct under asynchrony. */
        BEHAVIOUR,
        /**
         * The current policy's own (detached) log-prob: the ratio is always 1, every token is treated as
         * on-policy and staleness is ignored. This is the faulty scheme of ToolBrain, kept for comparison.
         */
        CURRENT_POLICY
    }
}
