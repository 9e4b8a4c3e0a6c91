package dev.toolcoach.bench.rollout;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Decode time of a continuous-batching engine with limited capacity, in front of a scripted
 * generator: every step gives each active reply one token; a step takes {@code msPerToken} while
 * at most {@code batchWidth} replies are active, and proportionally longer beyond that (the engine
 * is then compute-bound, so a burst of replies costs more than the same replies spread out).
 * Requests join at the next step; a reply is handed over after the step that produced its last token.
 */
final class SteppedEngine implements Generator {

    private final Generator inner;
    private final double msPerToken;
    private final int batchWidth;
    private final ScheduledExecutorService clock;
    /** Replies being decoded; guarded by this. */
    private final List<Decoding> active = new ArrayList<>();
    private boolean stepping;
    /** When the step under way ends; steps are timed from it, not from when the clock ran them, so timer lag does not add up. */
    private long stepEndsNanos;

    SteppedEngine(Generator inner, double msPerToken, int batchWidth, ScheduledExecutorService clock) {
        this.inner = inner;
        this.msPerToken = msPerToken;
        this.batchWidth = batchWidth;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Generation> generate(GenerationRequest request) {
        return inner.generate(request).thenCompose(reply -> {
            Decoding decoding = new Decoding(reply);
            synchronized (this) {
                active.add(decoding);
                if (!stepping) {
                    stepping = true;
                    stepEndsNanos = System.nanoTime();
                    scheduleStep();
                }
            }
            return decoding.done;
        });
    }

    @Override
    public void release(String trajectoryId) {
        inner.release(trajectoryId);
    }

    /** Called with the lock held: the next step's length depends on how many replies it decodes. */
    private void scheduleStep() {
        double ms = msPerToken * Math.max(1.0, active.size() / (double) batchWidth);
        stepEndsNanos += Math.round(ms * 1e6);
        clock.schedule(this::step, stepEndsNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    private void step() {
        List<Decoding> finished = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Decoding> it = active.iterator(); it.hasNext(); ) {
                Decoding decoding = it.next();
                if (--decoding.remaining == 0) {
                    it.remove();
                    finished.add(decoding);
                }
            }
            if (active.isEmpty()) {
                stepping = false;
            } else {
                scheduleStep();
            }
        }
        // handed over outside the lock: the loop's next request of a finished reply may come straight back in
        finished.forEach(decoding -> decoding.done.complete(decoding.reply));
    }

    private static final class Decoding {
        final Generation reply;
        final CompletableFuture<Generation> done = new CompletableFuture<>();
        int remaining;

        Decoding(Generation reply) {
            this.reply = reply;
            this.remaining = reply.length();
        }
    }
}
