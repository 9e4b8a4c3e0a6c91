package dev.toolcoach.learn.loss;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import dev.toolcoach.learn.batch.BatchTensors;
import dev.toolcoach.model.nn.ScopedConstant;

/**
 * DPO on a batch whose rows alternate chosen, rejected, chosen, rejected ... . With sequence log-probs
 * (masked sums) of the policy, pi, and of the reference, ref:
 * <pre>
 *   h = (pi_c - ref_c) - (pi_r - ref_r)
 *   sigmoid: -(1 - ls) log sigmoid(beta h) - ls log sigmoid(-beta h)
 *   IPO:     (h - 1 / (2 beta))^2, with log-probs averaged over each sequence's generated tokens
 * </pre>
 * Each pair's loss is scaled by its chosen row's weight (1 / pairs of the whole batch).
 */
public final class DpoLoss {
    private final DpoConfig config;

    public DpoLoss(DpoConfig config) {
        this.config = config;
    }

    public LossTerm<Stats> compute(NDArray policyLogprobs, NDArray referenceLogprobs, BatchTensors batch) {
        if (batch.mask().getShape().get(0) % 2 != 0) {
            throw new IllegalArgumentException("DPO rows must come in (chosen, rejected) pairs, got "
                    + batch.mask().getShape().get(0) + " rows");
        }
        NDArray policy = sequenceLogprobs(policyLogprobs, batch.mask()).reshape(-1, 2);
        NDArray reference = sequenceLogprobs(referenceLogprobs.stopGradient(), batch.mask()).reshape(-1, 2);
        NDArray logRatios = policy.sub(reference);
        NDArray h = logRatios.get(":, 0").sub(logRatios.get(":, 1"));
        NDArray perPair = switch (config.variant()) {
            // constants on the differentiable path are ScopedConstants (see there why)
            case SIGMOID -> logSigmoid(h.mul(ScopedConstant.like(h, config.beta())))
                    .mul(ScopedConstant.like(h, -(1 - config.labelSmoothing())))
                    .sub(logSigmoid(h.mul(ScopedConstant.like(h, -config.beta())))
                            .mul(ScopedConstant.like(h, config.labelSmoothing())));
            case IPO -> h.sub(1 / (2 * config.beta())).square();
        };
        NDArray pairWeights = batch.tokenWeights().max(new int[] {1}).reshape(-1, 2).get(":, 0");
        NDArray loss = perPair.mul(pairWeights).sum();
        NDArray margin = h.stopGradient().mul(config.beta());
        float[] v = NDArrays.stack(new NDList(
                loss.stopGradient().toType(batch.mask().getDataType(), false),
                margin.gt(0).toType(batch.mask().getDataType(), false).sum(),
                margin.sum().toType(batch.mask().getDataType(), false))).toFloatArray();
        return new LossTerm<>(loss, new Stats(v[0], (long) v[1], v[2], h.getShape().get(0)));
    }

    private NDArray sequenceLogprobs(NDArray tokenLogprobs, NDArray mask) {
        NDArray sums = tokenLogprobs.mul(mask).sum(new int[] {1});
        return config.variant() == DpoConfig.Variant.IPO ? sums.div(mask.sum(new int[] {1})) : sums;
    }

    /** log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|)), stable for large |x|. */
    static NDArray logSigmoid(NDArray x) {
        return x.minimum(ScopedConstant.like(x, 0)).sub(x.abs().neg().exp().add(1).log());
    }

    /**
     * Sums over the pairs of one or more micro-batches.
     *
     * @param loss          summed weighted loss
     * @param correct       pairs whose implicit reward ranks chosen above rejected
     * @param marginSum     sum of beta * h
     * @param pairs         pairs seen
     */
    public record Stats(double loss, long correct, double marginSum, long pairs) {
        public static final Stats ZERO = new Stats(0, 0, 0, 0);

        public Stats plus(Stats o) {
            return new Stats(loss + o.loss, correct + o.correct, marginSum + o.marginSum, pairs + o.pairs);
        }

        public double accuracy() {
            return pairs == 0 ? 0 : (double) correct / pairs;
        }

        public double meanMargin() {
            return pairs == 0 ? 0 : marginSum / pairs;
        }
    }
}
