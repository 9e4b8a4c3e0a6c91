package dev.toolcoach.cluster.toolserver;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Latency a tool server adds to each call's answer ({@code toolcoach.tools.added-latency}), drawn per call
 * log-uniformly between {@code min} and {@code max} (equally likely per factor of two: mostly short, a long
 * tail); off when {@code max} is zero, the default. It stands in for slow remote tools (web APIs, databases)
 * in benchmarks of tool-latency-bound rollouts. The wait holds no thread, and the executor's latency metrics
 * and each result's own latency do not include it.
 *
 * @param min the shortest added latency (at least 1 ms when on)
 * @param max the longest; zero turns the feature off
 */
public record AddedLatency(Duration min, Duration max) {

    /** No added latency. */
    public static final AddedLatency NONE = new AddedLatency(Duration.ZERO, Duration.ZERO);

    public AddedLatency {
        if (min.isNegative() || max.isNegative()) throw new IllegalArgumentException("added latency must not be negative: " + min + "-" + max);
        if (!max.isZero() && (min.toMillis() < 1 || max.compareTo(min) < 0)) {
            throw new IllegalArgumentException("added latency needs 1 ms <= min <= max, got min " + min + ", max " + max);
        }
    }

    public boolean isOff() {
        return max.isZero();
    }

    /** One call's added latency in milliseconds (0 when off). */
    public long drawMillis() {
        if (isOff()) return 0;
        if (min.equals(max)) return min.toMillis();
        double log = ThreadLocalRandom.current().nextDouble(Math.log(min.toMillis()), Math.log(max.toMillis()));
        return Math.round(Math.exp(log));
    }

    /** {@code answer}'s value, handed on once its call's drawn latency has passed after it completed. */
    public <T> CompletableFuture<T> delay(CompletableFuture<T> answer) {
        if (isOff()) return answer;
        long millis = drawMillis();
        return answer.thenCompose(value -> CompletableFuture.supplyAsync(() -> value,
                CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS)));
    }
}
