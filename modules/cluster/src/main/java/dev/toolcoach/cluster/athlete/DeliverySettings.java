package dev.toolcoach.cluster.athlete;

import java.time.Duration;
import java.util.Objects;

/**
 * How an athlete hands a trace to the learner.
 *
 * @param ackTimeout  how long to wait for the learner's ack before sending the trace again
 * @param maxAttempts sends of one trace before the athlete gives up on it; the coach's rollout
 *                    deadline then dispatches the rollout again, so nothing is lost for good
 */
public record DeliverySettings(Duration ackTimeout, int maxAttempts) {

    public DeliverySettings {
        Objects.requireNonNull(ackTimeout, "ackTimeout");
        if (ackTimeout.isNegative() || ackTimeout.isZero()) {
            throw new IllegalArgumentException("ack timeout must be positive, was " + ackTimeout);
        }
        if (maxAttempts < 1) throw new IllegalArgumentException("max attempts must be at least 1, was " + maxAttempts);
    }

    /** 5 s per attempt, 6 attempts. */
    public static DeliverySettings defaults() {
        return new DeliverySettings(Duration.ofSeconds(5), 6);
    }
}
