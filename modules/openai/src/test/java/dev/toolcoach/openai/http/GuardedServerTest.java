package dev.toolcoach.openai.http;

import akka.actor.ActorSystem;
import akka.http.javadsl.ServerBinding;
import akka.http.javadsl.server.Directives;
import akka.http.javadsl.server.Route;
import akka.http.javadsl.unmarshalling.Unmarshaller;
import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
        system = ActorSystem.create("guarded", ConfigFactory.parseString("akka.loglevel = WARNING\nakka.stdout-loglevel = OFF")
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
}
