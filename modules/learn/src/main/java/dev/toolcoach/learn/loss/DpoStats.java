package dev.toolcoach.learn.loss;

/**
 * Sums over the pairs of one or more micro-batches.
 *
 * @param loss          summed weighted loss
 * @param correct       pairs whose implicit reward ranks chosen above rejected
 * @param marginSum     sum of beta * h
 * @param pairs         pairs seen
 */
public record DpoStats(double loss, long correct, double marginSum, long pairs) {
    public static final DpoStats ZERO = new DpoStats(0, 0, 0, 0);

    public DpoStats plus(DpoStats o) {
        return new DpoStats(loss + o.loss, correct + o.correct, marginSum + o.marginSum, pairs + o.pairs);
    }

    public double accuracy() {
        return pairs == 0 ? 0 : (double) correct / pairs;
    }

    public double meanMargin() {
        return pairs == 0 ? 0 : marginSum / pairs;
    }
}
