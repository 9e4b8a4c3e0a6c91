package dev.toolcoach.openai.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Akka HTTP logs every request it answers itself as malformed or late, whoever sent it, so an unauthenticated client
 * could fill a node's log with a line (or a stack trace) per request. This logback filter (named in the programs' logback
 * configurations) lets one such event through per minute, followed by a count of those it held back; every other event
 * passes. The events: the warnings "Illegal request ..." (400, 408), and the error Akka HTTP 10.2 raises inside its own
 * pipeline, before any handler, for an HTTP/1.0 request with a chunked body (RFC 9112 gives HTTP/1.0 no chunked coding):
 * it answers that request 500 and logs it twice, as a failed stream stage and as an internal server error.
 */
public final class ClientErrorLogLimit extends TurboFilter {

    /** Where Akka HTTP's server logs them: the actor system's own log. */
    static final String AKKA_SYSTEM_LOGGER = "akka.actor.ActorSystemImpl";
    static final String ILLEGAL_REQUEST = "Illegal request";
    static final String INTERNAL_ERROR = "Internal server error";
    /** The requirement Akka HTTP's request model puts on a chunked HTTP/1.0 request, failing the connection's stream. */
    static final String CHUNKED_HTTP_10 = "requirement failed: HTTP/1.0 requests must not have a chunked entity";
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
        if (logger == null || format == null) return FilterReply.NEUTRAL;
        boolean chunkedHttp10 = t != null && CHUNKED_HTTP_10.equals(t.getMessage());
        if (chunkedHttp10 && !format.startsWith(INTERNAL_ERROR)) {
            return FilterReply.DENY; // the stage's own report of the failure the server's 500 line below also reports
        }
        boolean clientError = AKKA_SYSTEM_LOGGER.equals(logger.getName()) && (format.startsWith(ILLEGAL_REQUEST) || chunkedHttp10);
        if (!clientError) return FilterReply.NEUTRAL;
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
