package dev.toolcoach.openai.http;

import akka.actor.ActorSystem;
import akka.http.javadsl.ServerBinding;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.Route;
import akka.http.javadsl.unmarshalling.Unmarshaller;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slow and piled-up clients against a real Akka HTTP server bound by {@link GuardedServer}, with small limits. */
class GuardedServerTest {

    private static final ConnectionLimits LIMITS = new ConnectionLimits(8, 4, Duration.ofSeconds(1), Duration.ofSeconds(1));
    private static ActorSystem system;
    private static ServerBinding binding;

    @BeforeAll
    static void start() throws Exception {
        system = ActorSystem.create("guarded", ConfigFactory.parseString("""
                        akka.loggers = ["akka.event.slf4j.Slf4jLogger"]
                        akka.logging-filter = "akka.event.slf4j.Slf4jLoggingFilter"
                        akka.loglevel = WARNING
                        akka.stdout-loglevel = OFF""")
                .withFallback(ConfigFactory.load()));
        Route route = Directives.concat(
                Directives.path("echo", () -> Directives.post(() -> Directives.entity(Unmarshaller.entityToString(),
                        Directives::complete))),
                Directives.path("ping", () -> Directives.complete("pong")));
        binding = GuardedServer.bind(system, "127.0.0.1", 0, route, LIMITS).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), binding.localAddress().getPort()), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads until the server closes the connection; what it sent. */
    private static String untilClosed(Socket socket) throws IOException {
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }

    private static String ping(Socket socket) throws IOException {
        socket.getOutputStream().write("GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return untilClosed(socket);
    }

    /** Credentials are checked on the head: a keyless client sending a body slowly is answered at once, never waited for. */
    @Test
    void aRequestWithoutCredentialsIsAnsweredBeforeItsBodyIsRead() throws Exception {
        ActorSystem keyed = ActorSystem.create("keyed", ConfigFactory.parseString("akka.loglevel = WARNING\nakka.stdout-loglevel = OFF")
                .withFallback(ConfigFactory.load()));
        try {
            Route echo = Directives.path("echo", () -> Directives.post(() -> Directives.entity(Unmarshaller.entityToString(),
                    Directives::complete)));
            ServerBinding server = GuardedServer.bind(keyed, "127.0.0.1", 0, echo, LIMITS, inner -> Directives.headerValueByName(
                    "Authorization", key -> key.equals("Bearer k") ? inner : Directives.complete(akka.http.javadsl.model.StatusCodes.UNAUTHORIZED, "no"))
            ).toCompletableFuture().get(30, TimeUnit.SECONDS);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.localAddress().getPort()), 5_000);
                socket.setSoTimeout(10_000);
                long start = System.nanoTime();
                // a body of 10 bytes announced and never sent: the body timeout (1 s) would answer 408
                socket.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n"
                        + "Content-Length: 10\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                byte[] head = new byte[12];
                int read = socket.getInputStream().readNBytes(head, 0, head.length);
                assertEquals("HTTP/1.1 401", new String(head, 0, read, StandardCharsets.US_ASCII));
                assertTrue(System.nanoTime() - start < LIMITS.bodyTimeout().toNanos(), "answered before the body deadline");
            }
            try (Socket socket = new Socket()) { // with the key, the body is read and the route answers
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.localAddress().getPort()), 5_000);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nConnection: close\r\n"
                        + "Content-Length: 5\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII));
                String answer = untilClosed(socket);
                assertTrue(answer.startsWith("HTTP/1.1 200") && answer.endsWith("hello"), answer);
            }
        } finally {
            keyed.terminate();
            keyed.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aHeadDribbledAByteAtATimeIsCutAtTheHeadTimeout() throws Exception {
        try (Socket slow = connect()) {
            long start = System.nanoTime();
            slow.getOutputStream().write("GET /ping HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            // the attack's pace, not a wait: a byte every 200 ms keeps Akka's idle timeout from ever firing
            try {
                for (int i = 0; i < 50; i++) {
                    slow.getOutputStream().write('X');
                    Thread.sleep(200);
                }
            } catch (IOException closedByTheServer) {
                // the server closed the connection
            }
            assertEquals("", untilClosed(slow), "nothing was answered");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 900 && millis < 5_000, "cut after " + millis + " ms");
        }
    }

    @Test
    void aBodyThatDoesNotArriveInTimeIsCutAtTheBodyTimeout() throws Exception {
        try (Socket slow = connect()) {
            long start = System.nanoTime();
            slow.getOutputStream().write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\nabc"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer;
            try {
                answer = untilClosed(slow);
            } catch (SocketException reset) {
                answer = ""; // the entity failed, so Akka aborts the connection, and its 408 may not arrive before the reset
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(millis >= 900 && millis < 5_000, "cut after " + millis + " ms");
            assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 408 "), answer);
        }
    }

    @Test
    void atTheLimitANewConnectionPushesOutTheOldestIdleOne() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) idle.add(connect());
            // twenty silent connections from one address, four kept: the newcomer is served, and the first are gone
            try (Socket served = connect()) {
                assertTrue(ping(served).startsWith("HTTP/1.1 200 "));
            }
            assertEquals("", untilClosed(idle.get(0)), "the oldest idle connection was closed");
        } finally {
            for (Socket s : idle) s.close();
        }
    }

    /** What the appender holds now (it appends under its own lock, from the logging threads). */
    private static List<ILoggingEvent> logged(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }

    /**
     * HTTP/1.0 has no chunked transfer coding (RFC 9112 6.1). Akka HTTP 10.2 fails such a request inside its own pipeline,
     * before any handler, and answers it 500: a flood of them is answered, the server keeps serving, and the log holds one
     * line of them a minute, not two stack traces a request.
     */
    @Test
    void aFloodOfChunkedHttp10RequestsIsAnsweredAndLogsOneLine() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ClientErrorLogLimit limit = new ClientErrorLogLimit();
        limit.start();
        context.addTurboFilter(limit);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.setContext(context);
        lines.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(lines);
        try {
            for (int i = 0; i < 50; i++) {
                try (Socket socket = connect()) {
                    socket.getOutputStream().write(("POST /echo HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                            + "5\r\nhello\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    assertTrue(untilClosed(socket).startsWith("HTTP/1.1 500 "), "answered, and the connection closed");
                }
            }
            try (Socket served = connect()) {
                assertTrue(ping(served).startsWith("HTTP/1.1 200 "));
            }
            // Akka's log is an actor's queue: once this line is out, every line the requests caused is out too
            system.log().warning("sentinel");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (logged(lines).stream().noneMatch(e -> e.getFormattedMessage().equals("sentinel")) && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            List<ILoggingEvent> logged = logged(lines).stream().filter(e -> e.getThrowableProxy() != null
                    && ClientErrorLogLimit.CHUNKED_HTTP_10.equals(e.getThrowableProxy().getMessage())).toList();
            assertEquals(1, logged.size(), "one line for fifty requests");
        } finally {
            root.detachAppender(lines);
            context.getTurboFilterList().remove(limit);
        }
    }
}
