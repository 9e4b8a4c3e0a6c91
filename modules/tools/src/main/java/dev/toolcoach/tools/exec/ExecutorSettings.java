package dev.toolcoach.tools.exec;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits of one tool executor.
 *
 * @param maxConcurrentCalls    calls running at once (the pool's threads)
 * @param maxQueuedCalls        calls waiting for a thread; beyond this a call is refused as UNAVAILABLE
 * @param callTimeout           how long after it was submitted a call becomes a TIMEOUT result (waiting for a thread
 *                              counts too)
 * @param outputCapChars        longest tool output text; longer text is cut in the middle with a marker
 * @param trajectoryIdleTimeout per-trajectory state unused this long is released
 * @param maxAbandonedThreads   threads of calls that overran their deadline and are still running (a tool that
 *                              ignores interrupts) that are replaced by new ones; beyond this they keep their slot
 */
public record ExecutorSettings(int maxConcurrentCalls, int maxQueuedCalls, Duration callTimeout,
                               int outputCapChars, Duration trajectoryIdleTimeout, int maxAbandonedThreads) {

    public ExecutorSettings {
        if (maxConcurrentCalls < 1) throw new IllegalArgumentException("maxConcurrentCalls must be >= 1, got " + maxConcurrentCalls);
        if (maxQueuedCalls < 0) throw new IllegalArgumentException("maxQueuedCalls must be >= 0, got " + maxQueuedCalls);
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(trajectoryIdleTimeout, "trajectoryIdleTimeout");
        if (callTimeout.isNegative() || callTimeout.isZero()) throw new IllegalArgumentException("callTimeout must be positive");
        if (trajectoryIdleTimeout.isNegative() || trajectoryIdleTimeout.isZero()) {
            throw new IllegalArgumentException("trajectoryIdleTimeout must be positive");
        }
        if (outputCapChars < 1) throw new IllegalArgumentException("outputCapChars must be >= 1, got " + outputCapChars);
        if (maxAbandonedThreads < 0) throw new IllegalArgumentException("maxAbandonedThreads must be >= 0, got " + maxAbandonedThreads);
    }

    /** 8 threads, 256 queued, 10 s per call, 16,000 characters, 10 minutes idle, 8 abandoned threads replaced. */
    public static ExecutorSettings defaults() {
        return new ExecutorSettings(8, 256, Duration.ofSeconds(10), 16_000, Duration.ofMinutes(10), 8);
    }

    public ExecutorSettings withCallTimeout(Duration timeout) {
        return new ExecutorSettings(maxConcurrentCalls, maxQueuedCalls, timeout, outputCapChars, trajectoryIdleTimeout, maxAbandonedThreads);
    }

    public ExecutorSettings withOutputCap(int chars) {
        return new ExecutorSettings(maxConcurrentCalls, maxQueuedCalls, callTimeout, chars, trajectoryIdleTimeout, maxAbandonedThreads);
    }

    public ExecutorSettings withConcurrency(int running, int queued) {
        return new ExecutorSettings(running, queued, callTimeout, outputCapChars, trajectoryIdleTimeout, maxAbandonedThreads);
    }

    public ExecutorSettings withMaxAbandonedThreads(int threads) {
        return new ExecutorSettings(maxConcurrentCalls, maxQueuedCalls, callTimeout, outputCapChars, trajectoryIdleTimeout, threads);
    }

    public ExecutorSettings withIdleTimeout(Duration idle) {
        return new ExecutorSettings(maxConcurrentCalls, maxQueuedCalls, callTimeout, outputCapChars, idle, maxAbandonedThreads);
    }
}
