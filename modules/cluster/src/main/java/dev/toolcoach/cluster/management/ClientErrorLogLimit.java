package dev.toolcoach.cluster.management;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Akka HTTP logs a warning for every request it answers itself as malformed or late (400, 408: "Illegal request ..."),
 * whoever sent it, so an unauthenticated client could fill a node's log with one line per request. This logback filter
 * (named in the programs' logback configurations) lets one such line through per minute, followed by a count of those it
 * held back; every other event passes.
 */
public final class ClientErrorLogLimit extends TurboFilter {

    /** Where Akka HTTP's server logs them: the actor system's own log. */
    static final String AKKA_SYSTEM_LOGGER = "akka.actor.ActorSystemImpl";
    static final String PREFIX = "Illegal request";
    static final Duration PERIOD = Duration.ofMinutes(1);

    private final LongSupplier nanoTime;
    private final AtomicLong nextLogged;
    private final AtomicLong heldBack = new AtomicLong();

    public ClientErrorLogLimit() {
        this(System::nanoTime);
    }

    ClientErrorLogLimit(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.nextLogged = new AtomicLong(nanoTime.getAsLong());
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (logger == null || format == null || !AKKA_SYSTEM_LOGGER.equals(logger.getName()) || !format.startsWith(PREFIX)) {
            return FilterReply.NEUTRAL;
        }
        long now = nanoTime.getAsLong();
        long next = nextLogged.get();
        if (now - next >= 0 && nextLogged.compareAndSet(next, now + PERIOD.toNanos())) {
            long held = heldBack.getAndSet(0);
            if (held > 0) {
                logger.getLoggerContext().getLogger(ClientErrorLogLimit.class)
                        .warn("{} more requests answered as malformed or late were not logged in the last minute", held);
            }
            return FilterReply.NEUTRAL;
        }
        heldBack.incrementAndGet();
        return FilterReply.DENY;
    }
}
