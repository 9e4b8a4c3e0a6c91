package dev.toolcoach.learn.optim;

import java.util.Objects;

/**
 * Learning rate per optimiser step: linear warm-up from 0, then constant, linear or cosine decay to
 * {@code peak * minRatio} at {@code totalSteps}.
 */
public record LrSchedule(double peak, int warmupSteps, int totalSteps, Decay decay, double minRatio) {

    public enum Decay { CONSTANT, LINEAR, COSINE }

    public static LrSchedule constant(double lr) {
        return new LrSchedule(lr, 0, 1, Decay.CONSTANT, 1.0);
    }

    public LrSchedule {
        Objects.requireNonNull(decay, "decay");
        if (peak <= 0 || warmupSteps < 0 || totalSteps < 1 || minRatio < 0 || minRatio > 1) {
            throw new IllegalArgumentException("need peak > 0, warmupSteps >= 0, totalSteps >= 1, 0 <= minRatio <= 1");
        }
    }

    /** @param step zero-based optimiser step */
    public double at(long step) {
        if (step < warmupSteps) {
            return peak * (step + 1) / warmupSteps;
        }
        double span = Math.max(1, totalSteps - warmupSteps);
        double progress = Math.min(1.0, (step - warmupSteps) / span);
        double floor = peak * minRatio;
        return switch (decay) {
            case CONSTANT -> peak;
            case LINEAR -> floor + (peak - floor) * (1 - progress);
            case COSINE -> floor + (peak - floor) * 0.5 * (1 + Math.cos(Math.PI * progress));
        };
    }
}
