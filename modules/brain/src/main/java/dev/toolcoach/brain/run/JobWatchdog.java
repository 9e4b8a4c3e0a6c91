package dev.toolcoach.brain.run;

import dev.toolcoach.brain.TrainingConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * When a training run must be ended although it has not finished: it ran longer than its job timeout, or no learner
 * step completed within the stall timeout (athletes that never answer, a hung reward, a learner that is gone). The
 * run waits for its outcome at most {@link #nanosUntilDue()} at a time and asks {@link #expired()} in between
 * ({@link #await}).
 * Thread-safe: steps are reported on the learner's thread, the run asks on its own.
 */
final class JobWatchdog {
    private static final Logger LOG = LoggerFactory.getLogger(JobWatchdog.class);
    private final TrainingConfig.Limits limits;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private volatile long lastStepNanos;

    /** @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime}) */
    JobWatchdog(TrainingConfig.Limits limits, LongSupplier nanoTime) {
        this.limits = limits;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
        this.lastStepNanos = startNanos;
    }

    /** A learner step completed: the stall timeout counts from now. */
    void stepDone() {
        lastStepNanos = nanoTime.getAsLong();
    }

    /** Why the run must end now, or empty while it is within its limits. */
    Optional<String> expired() {
        long now = nanoTime.getAsLong();
        if (now - startNanos >= limits.jobTimeout().toNanos()) {
            return Optional.of("the job ran past its timeout of " + limits.jobTimeout());
        }
        if (now - lastStepNanos >= limits.stallTimeout().toNanos()) {
            return Optional.of("no learner step completed within the stall timeout of " + limits.stallTimeout()
                    + " (last progress " + Duration.ofNanos(now - lastStepNanos).toSeconds() + " s ago)");
        }
        return Optional.empty();
    }

    /** @throws TrainingFailedException saying why, when the run must end now (logged) */
    void check() {
        Optional<String> expired = expired();
        if (expired.isPresent()) {
            LOG.error("training stopped by the watchdog: {}", expired.get());
            throw new TrainingFailedException("training stopped: " + expired.get(), null);
        }
    }

    /**
     * Waits for {@code outcome} within the limits.
     *
     * @throws TrainingFailedException when a limit passed, the outcome failed (its cause's message), or the waiting
     *                                 thread was interrupted
     */
    <T> T await(Future<T> outcome) {
        try {
            while (true) {
                check();
                try {
                    return outcome.get(nanosUntilDue(), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    // a limit may be due: asked at the top
                }
            }
        } catch (ExecutionException e) {
            throw new TrainingFailedException("training stopped: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TrainingFailedException("interrupted while training", e);
        }
    }

    /** How long the run may wait before it must ask again (at least 1 ns). */
    long nanosUntilDue() {
        long now = nanoTime.getAsLong();
        long job = startNanos + limits.jobTimeout().toNanos() - now;
        long stall = lastStepNanos + limits.stallTimeout().toNanos() - now;
        return Math.max(1, Math.min(job, stall));
    }
}
