package dev.toolcoach.learn.optim;

/**
 * AdamW hyper-parameters (the learning rate itself comes from the {@link LrSchedule}).
 *
 * @param beta1       first-moment decay
 * @param beta2       second-moment decay
 * @param eps         denominator floor
 * @param weightDecay decoupled decay per unit learning rate (Loshchilov and Hutter)
 */
public record AdamWConfig(double beta1, double beta2, double eps, double weightDecay) {
    public static AdamWConfig defaults() {
        return new AdamWConfig(0.9, 0.999, 1e-8, 0.0);
    }

    public AdamWConfig {
        if (beta1 < 0 || beta1 >= 1 || beta2 < 0 || beta2 >= 1 || eps <= 0 || weightDecay < 0) {
            throw new IllegalArgumentException("need 0 <= beta1, beta2 < 1, eps > 0, weightDecay >= 0");
        }
    }
}
