package dev.toolcoach.learn.loss;

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
public record GrpoStats(double loss, double ratioSum, long clippedLow, long clippedHigh, long capped,
                        double klSum, double entropySum, long tokens) {

    public static final GrpoStats ZERO = new GrpoStats(0, 0, 0, 0, 0, 0, 0, 0);

    public GrpoStats plus(GrpoStats o) {
        return new GrpoStats(loss + o.loss, ratioSum + o.ratioSum, clippedLow + o.clippedLow,
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
