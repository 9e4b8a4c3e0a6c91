package dev.toolcoach.coachnode;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

import java.util.Set;

/**
 * Keeps library messages that mean nothing to a user off the console (coach-node-logback.xml puts it on the console
 * appender only; a log file still gets them): DJL's GPU probe, which warns on every CPU-only machine that it found no
 * CUDA driver. Errors always pass.
 */
public final class LibraryNoiseFilter extends Filter<ILoggingEvent> {

    /** Loggers whose warnings and below stay off the console. */
    static final Set<String> QUIET = Set.of("ai.djl.util.cuda.CudaUtils");

    @Override
    public FilterReply decide(ILoggingEvent event) {
        return QUIET.contains(event.getLoggerName()) && !event.getLevel().isGreaterOrEqual(Level.ERROR)
                ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
