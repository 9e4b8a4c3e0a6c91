package dev.toolcoach.openai.http;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A flood of Akka HTTP's per-request warnings becomes a line a minute; every other event passes. */
class ClientErrorLogLimitTest {

    @Test
    void aThousandIllegalRequestsLogOneLineAMinuteAndEverythingElsePasses() {
        AtomicLong now = new AtomicLong(1_000);
        LoggerContext context = new LoggerContext();
        context.addTurboFilter(new ClientErrorLogLimit(now::get));
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.setContext(context);
        lines.start();
        Logger akka = context.getLogger(ClientErrorLogLimit.AKKA_SYSTEM_LOGGER);
        akka.addAppender(lines);
        context.getLogger(ClientErrorLogLimit.class).addAppender(lines);

        for (int i = 0; i < 1_000; i++) {
            akka.warn("Illegal request: 'Request timed out after 30000 milliseconds while waiting for entity data'. Completing with 408");
        }
        akka.warn("Binding failed");
        assertEquals(2, lines.list.size(), "the first of the flood, and the system's own warning");

        now.addAndGet(ClientErrorLogLimit.PERIOD.toNanos());
        akka.warn("Illegal request, responding with status '400 Bad Request': Illegal HTTP message start");
        assertEquals(4, lines.list.size());
        assertEquals("999 more requests answered as malformed or late were not logged in the last minute",
                lines.list.get(2).getFormattedMessage());
        assertEquals("Illegal request, responding with status '400 Bad Request': Illegal HTTP message start",
                lines.list.get(3).getFormattedMessage());
    }
}
