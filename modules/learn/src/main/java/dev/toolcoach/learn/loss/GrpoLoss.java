package dev.toolcoach.learn.loss;

import dev.toolcoach.model.TokenScores;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.model.nn.ScopedConstant;

/**
 * The clipped GRPO objective with truncated importance sampling and an optional k3 KL penalty.
 *
 * <p>Per generated token, with r = exp(logp - behaviour logp) and advantage A:
 * <pre>
 *   r_tis = r * sg(min(1, C / r))                       value and gradient weight capped at C
 *                                                        (computed in log space, so it cannot overflow)
 *   loss  = -min(r_tis * A, clip(r, 1 - epsLow, 1 + epsHigh) * A) + beta * k3(ref, logp) - bonus * H
 *   k3    = exp(ref - logp) - (ref - logp) - 1
 * </pre>
 * The cap only bites where PPO clipping does not: a stale token with A < 0 and r > C keeps a bounded
 * push (weight C) instead of being dropped or scaled by an unbounded ratio. H is the entropy of the policy's
 * next-token distribution at the token's position; its bonus needs scores with the entropy's gradient.
 */
public final class GrpoLoss {
    private static final float MAX_LOG_RATIO = 20f;
    private static final float MAX_K3 = 10f;
    private final GrpoConfig config;

    public GrpoLoss(GrpoConfig config) {
        this.config = config;
    }

    /**
     * @param policy     scores of the current policy
     * @param reference  log-probs of the reference policy, or null when beta is 0
     * @param batch      the micro-batch
     */
    public LossTerm<Stats> compute(TokenScores policy, NDArray reference, BatchTensors batch) {
        if (config.beta() > 0 && reference == null) {
            throw new IllegalArgumentException("beta " + config.beta() + " > 0 needs reference log-probs");
        }
        NDArray logp = policy.logprobs();
        NDArray baseline = config.ratioBaseline() == GrpoConfig.RatioBaseline.BEHAVIOUR
                ? batch.behaviourLogprobs() : logp.stopGradient();
        NDArray logRatio = logp.sub(baseline);
        // bounded before exp so a very stale token cannot overflow to inf (inf * 0 = NaN in backward);
        // past the bound the clip below is flat anyway
        NDArray ratio = logRatio.minimum(ScopedConstant.like(logRatio, MAX_LOG_RATIO)).exp();
        NDArray detached = ratio.stopGradient();
        // r_tis = exp(logRatio - sg(max(0, logRatio - ln C))): value min(r, C), gradient weight min(r, C)
        NDArray excess = logRatio.stopGradient().sub(Math.log(config.importanceCap())).maximum(0);
        NDArray advantage = batch.advantages();
        NDArray unclipped = logRatio.sub(excess).exp().mul(advantage);
        NDArray clipped = ratio.clip(1 - config.epsLow(), 1 + config.epsHigh()).mul(advantage);
        NDArray perToken = unclipped.minimum(clipped).neg();
        NDArray kl = reference == null ? null : k3(reference, logp);
        if (config.beta() > 0) {
            perToken = perToken.add(kl.mul(ScopedConstant.like(kl, config.beta())));
        }
        if (config.entropyBonus() > 0) {
            perToken = perToken.sub(policy.entropy().mul(ScopedConstant.like(logp, (float) config.entropyBonus())));
        }
        NDArray loss = perToken.mul(batch.tokenWeights()).sum();
        return new LossTerm<>(loss, stats(loss, detached, advantage, kl, policy.entropy().stopGradient(), batch.mask()));
    }

    /**
     * k3 = exp(d) - d - 1 with d = ref - logp, d clamped to +-20 and k3 to at most 10 (as verl does):
     * unclamped, a token the policy has pushed far below the reference makes exp(d) overflow.
 * Constants on the differentiable path are {@link ScopedConstant}s (see there why).
     */
    static NDArray k3(NDArray reference, NDArray logp) {
        NDArray delta = reference.sub(logp).clip(-MAX_LOG_RATIO, MAX_LOG_RATIO);
        return delta.exp().sub(delta).sub(1).minimum(ScopedConstant.like(delta, MAX_K3));
    }

    private Stats stats(NDArray loss, NDArray ratio, NDArray advantage, NDArray kl, NDArray entropy, NDArray mask) {
        NDArray maskBool = mask.gt(0);
        NDArray lowClipped = ratio.lt(1 - config.epsLow()).logicalAnd(advantage.lt(0)).logicalAnd(maskBool);
        NDArray highClipped = ratio.gt(1 + config.epsHigh()).logicalAnd(advantage.gt(0)).logicalAnd(maskBool);
        NDArray capped = ratio.gt(config.importanceCap()).logicalAnd(maskBool);
        NDArray klSum = kl == null ? mask.sum().mul(Float.NaN) : kl.stopGradient().mul(mask).sum();
        float[] v = NDArrays.stack(new NDList(
                loss.stopGradient().toType(mask.getDataType(), false),
                ratio.mul(mask).sum().toType(mask.getDataType(), false),
                lowClipped.toType(mask.getDataType(), false).sum(),
                highClipped.toType(mask.getDataType(), false).sum(),
                capped.toType(mask.getDataType(), false).sum(),
                klSum.toType(mask.getDataType(), false),
                entropy.mul(mask).sum().toType(mask.getDataType(), false),
                mask.sum())).toFloatArray();
        return new Stats(v[0], v[1], (long) v[2], (long) v[3], (long) v[4], v[5], v[6], (long) v[7]);
    }

    /**
     * Sums over the generated tokens of one or more micro-batches.
     *
     * @param loss         summed weighted loss (already aggregated, so micro-batch losses add up)
     * @param ratioSum     sum of the importance ratios
     * @param clippedLow   tokens with negative advantage whose ratio fell below 1 - epsLow
     * @param clippedHigh  tokens with positive advantage whose ratio rose above 1 + epsHigh
     * @param capped       tokens whose ratio exceeded the importance cap
     * @param klSum        sum of the k3 KL estimates (NaN when no reference was scored)
     * @param entropySum   sum of the policy's next-token entropies
     * @param tokens       generated tokens
     */
    public record Stats(double loss, double ratioSum, long clippedLow, long clippedHigh, long capped,
                            double klSum, double entropySum, long tokens) {

        public static final Stats ZERO = new Stats(0, 0, 0, 0, 0, 0, 0, 0);

        public Stats plus(Stats o) {
            return new Stats(loss + o.loss, ratioSum + o.ratioSum, clippedLow + o.clippedLow,
                    clippedHigh + o.clippedHigh, capped + o.capped, klSum + o.klSum, entropySum + o.entropySum,
                    tokens + o.tokens);
        }

        public double meanRatio() {
            return perToken(ratioSum);
        }

        public double clipFractionLow() {
            return perToken(clippedLow);
        }

        public double clipFractionHigh() {
            return perToken(clippedHigh);
        }

        public double cappedFraction() {
            return perToken(capped);
        }

        public double meanKl() {
            return perToken(klSum);
        }

        public double meanEntropy() {
            return perToken(entropySum);
        }

        private double perToken(double sum) {
            return tokens == 0 ? 0 : sum / tokens;
        }
    }
}
