package dev.toolcoach.toolnode;

import dev.toolcoach.openai.http.ConnectionLimits;
import dev.toolcoach.testkit.RawHttp;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tool-node mcp --http-port} without a token, as a browser page or a misbehaving client on this machine meets it:
 * the real endpoint (the SDK's servlet in Jetty) over the arithmetic suite, requests written byte for byte.
 */
class McpAdversarialTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int MAX_SESSIONS = 8;
    private static final ConnectionLimits LIMITS = new ConnectionLimits(16, 4, Duration.ofSeconds(1), Duration.ofSeconds(30));
    private static final String INITIALIZE = """
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
             "capabilities": {}, "clientInfo": {"name": "probe", "version": "1"}}}""";

    private static BuiltinSuites.Hosted arithmetic;
    private static ToolExecutor executor;
    private static McpHttpEndpoint endpoint;

    @BeforeAll
    static void start() throws Exception {
        arithmetic = BuiltinSuites.open("arithmetic", BuiltinSuites.Options.defaults());
        executor = new ToolExecutor(arithmetic.suite(), ExecutorSettings.defaults());
        endpoint = McpHttpEndpoint.start("127.0.0.1", 0, Optional.empty(), List.of(executor), "test", LIMITS,
                new McpHttpEndpoint.Sessions(MAX_SESSIONS, Duration.ofSeconds(1), Duration.ofMinutes(5)));
    }

    @AfterAll
    static void stop() throws Exception {
        endpoint.close();
        executor.close();
        arithmetic.close();
    }

    static Map<String, String> headers(URI url) {
        Map<String, String> headers = RawHttp.loopbackHeaders(url, "application/json");
        headers.put("Accept", "application/json, text/event-stream");
        return headers;
    }

    @Test
    void aBrowserPageOrARebindingNameOpensNoSession() {
        URI url = endpoint.uri();
        Map<String, String> page = headers(url);
        page.put("Origin", "http://evil.example");
        RawHttp.Response csrf = RawHttp.send("POST", url, page, INITIALIZE, TIMEOUT);
        assertEquals(403, csrf.status(), csrf.body());
        assertEquals("{\"status\":403,\"error\":\"the request's Origin is another site: only this machine's own clients (no browser "
                + "page) may call this endpoint without credentials\"}", csrf.body(), "JSON, its message not escaped for HTML");
        Map<String, String> rebound = headers(url);
        rebound.put("Host", "evil.example:" + url.getPort());
        assertEquals(403, RawHttp.send("POST", url, rebound, INITIALIZE, TIMEOUT).status());
        RawHttp.Response own = RawHttp.send("POST", url, headers(url), INITIALIZE, TIMEOUT);
        assertEquals(200, own.status(), own.body());
        assertTrue(own.body().contains("serverInfo"), own.body());
    }

    @Test
    void silentConnectionsDoNotCrowdOutAClientAndADribbledHeadIsCut() throws Exception {
        URI url = endpoint.uri();
        List<Socket> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) silent.add(connect(url));
            // the flood's address keeps four; another client is not crowded out
            RawHttp.Response other = RawHttp.send("POST", url, headers(url), INITIALIZE, TIMEOUT,
                    InetAddress.getByAddress(new byte[] {127, 0, 0, 2}));
            assertEquals(200, other.status(), other.body());
        } finally {
            for (Socket s : silent) s.close();
        }
        try (Socket dribbling = connect(url)) {
            dribbling.getOutputStream().write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            // the attack's pace, not a wait: a byte every 200 ms would keep Jetty's idle timeout from firing
            try {
                for (int i = 0; i < 50; i++) {
                    dribbling.getOutputStream().write('X');
                    Thread.sleep(200);
                }
            } catch (IOException closedByTheServer) {
                // the server closed the connection
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 900 && millis < 5_000, "cut at the head timeout, after " + millis + " ms");
        }
    }

    /**
     * Event streams whose clients went away end at the next keep-alive ping: they stop holding their connections, so the
     * address they came from (all of loopback) is not locked out.
     */
    @Test
    void abandonedEventStreamsEndAndDoNotLockOutTheirAddress() throws Exception {
        ConnectionLimits tight = new ConnectionLimits(16, 3, Duration.ofSeconds(1), Duration.ofSeconds(30));
        McpHttpEndpoint pinged = McpHttpEndpoint.start("127.0.0.1", 0, Optional.empty(), List.of(executor), "test", tight,
                new McpHttpEndpoint.Sessions(MAX_SESSIONS, Duration.ofMinutes(5), Duration.ofMillis(300)));
        try {
            URI url = pinged.uri();
            for (int i = 0; i < 3; i++) {
                openStream(url, initialize(url)).close(); // the client goes away with its stream open
            }
            assertEquals(200, initializeUntilTaken(url), "a client of the same address is taken again");
        } finally {
            pinged.close();
        }
    }

    /**
     * When every session kept has a stream open, a new one is answered 503 with Retry-After (busy, not broken), its
     * reason as JSON; once a stream's client has gone, its place is taken again.
     */
    @Test
    void atTheSessionCapWithEveryStreamOpenANewSessionIsAnswered503() throws Exception {
        // a long head timeout: the pooled connections of the clients' pings and initializes are not cut while reused
        ConnectionLimits patient = new ConnectionLimits(32, 16, Duration.ofSeconds(30), Duration.ofSeconds(30));
        McpHttpEndpoint capped = McpHttpEndpoint.start("127.0.0.1", 0, Optional.empty(), List.of(executor), "test", patient,
                new McpHttpEndpoint.Sessions(2, Duration.ofMinutes(5), Duration.ofMillis(300)));
        URI url = capped.uri();
        try (LiveStream first = new LiveStream(url, initialize(url)); LiveStream second = new LiveStream(url, initialize(url))) {
            HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(url).timeout(TIMEOUT)
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(Optional.of("5"), refused.headers().firstValue("Retry-After"));
            assertEquals("{\"status\":503,\"error\":\"all 2 MCP sessions this server keeps have a stream open; try again later\"}",
                    refused.body());
            first.close();
            assertEquals(200, initializeUntilTaken(url), "the gone client's place is taken again");
        } finally {
            capped.close();
        }
    }

    /**
     * A client that keeps its session's event stream open and, as MCP asks, answers the server's pings on it (a
     * stream whose pings go unanswered is ended by the server).
     */
    private static final class LiveStream implements AutoCloseable {
        private final Socket socket;
        private final Thread answering;

        LiveStream(URI url, String session) throws IOException {
            socket = openStream(url, session);
            answering = new Thread(() -> answerPings(url, session), "ping-answers");
            answering.setDaemon(true);
            answering.start();
        }

        private void answerPings(URI url, String session) {
            try {
                java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (!line.startsWith("data:") || !line.contains("\"ping\"")) continue;
                    String id = JSON.readTree(line.substring(5)).get("id").toString();
                    post(url, session, "{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": {}}");
                }
            } catch (Exception closed) {
                // the test closed the stream: this client has gone
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
            answering.join(TIMEOUT.toMillis());
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** A new session at {@code url}: its id. */
    private static String initialize(URI url) throws Exception {
        HttpResponse<String> initialized = HTTP.send(HttpRequest.newBuilder(url).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, initialized.statusCode(), initialized.body());
        return initialized.headers().firstValue("mcp-session-id").orElseThrow();
    }

    /** The session's event stream, open once its head has come (with the first keep-alive ping). */
    private static Socket openStream(URI url, String session) throws IOException {
        Socket stream = connect(url);
        stream.getOutputStream().write(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + url.getPort() + "\r\n"
                + "Accept: text/event-stream\r\nMcp-Session-Id: " + session + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] head = new byte[12];
        assertEquals("HTTP/1.1 200", new String(head, 0, stream.getInputStream().readNBytes(head, 0, 12), StandardCharsets.US_ASCII));
        return stream;
    }

    /** Initializes until a session is taken or the deadline passes: the status last answered. */
    private static int initializeUntilTaken(URI url) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        int status = 0;
        while (status != 200 && System.nanoTime() < deadline) {
            try {
                status = RawHttp.send("POST", url, headers(url), INITIALIZE, Duration.ofSeconds(2)).status();
            } catch (RuntimeException refused) {
                status = 0;
            }
            if (status != 200) Thread.sleep(100); // polling with a deadline: streams end at the next ping, on the server's clock
        }
        return status;
    }

    /** A body sent a byte at a time is cut at the body timeout: Jetty has no such deadline of its own. */
    @Test
    void aTrickledBodyIsCutAtTheBodyTimeout() throws Exception {
        ConnectionLimits quick = new ConnectionLimits(16, 4, Duration.ofSeconds(5), Duration.ofSeconds(1));
        McpHttpEndpoint endpoint = McpHttpEndpoint.start("127.0.0.1", 0, Optional.empty(), List.of(executor), "test", quick,
                new McpHttpEndpoint.Sessions(MAX_SESSIONS, Duration.ofMinutes(5), Duration.ofMinutes(5)));
        try (Socket trickle = connect(endpoint.uri())) {
            trickle.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + endpoint.uri().getPort() + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            // the attack's pace, not a wait: a byte every 200 ms keeps Jetty's idle timeout from firing
            try {
                for (int i = 0; i < 50; i++) {
                    trickle.getOutputStream().write(' ');
                    Thread.sleep(200);
                }
            } catch (IOException closedByTheServer) {
                // the server closed the connection
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis >= 900 && millis < 5_000, "cut at the body timeout, after " + millis + " ms");
        } finally {
            endpoint.close();
        }
    }

    private static Socket connect(URI url) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), url.getPort()), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    @Test
    void errorsAreJsonRpcErrorsWithoutAJavaStackTrace() throws Exception {
        URI url = endpoint.uri();
        for (String body : List.of("{not json", "[]", "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}")) {
            RawHttp.Response refused = RawHttp.send("POST", url, headers(url), body, TIMEOUT);
            assertEquals(400, refused.status(), refused.body());
            assertTrue(refused.body().startsWith("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":"), refused.body());
            assertFalse(refused.body().contains("stackTrace") || refused.body().contains("java") || refused.body().contains("className"),
                    refused.body());
        }
    }

    @Test
    void argumentsThatAreNotAnObjectGetAJsonRpcErrorOfTheCallsId() throws Exception {
        String session = initialize();
        for (String arguments : List.of("\"{\\\"a\\\": 1}\"", "[1, 2]", "7")) {
            String answer = post(session, "{\"jsonrpc\": \"2.0\", \"id\": 42, \"method\": \"tools/call\", "
                    + "\"params\": {\"name\": \"add\", \"arguments\": " + arguments + "}}").body();
            assertTrue(answer.contains("{\"jsonrpc\":\"2.0\",\"id\":42,\"error\":{\"code\":-32602,\"message\":"
                    + "\"params.arguments must be a JSON object, not "), arguments + ": " + answer);
        }
        String sum = post(session, "{\"jsonrpc\": \"2.0\", \"id\": 43, \"method\": \"tools/call\", "
                + "\"params\": {\"name\": \"add\", \"arguments\": {\"a\": 1, \"b\": 2}}}").body();
        assertTrue(sum.contains("\"id\":43,\"result\""), sum);
    }

    @Test
    void abandonedSessionsAreCappedAndExpire() throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < MAX_SESSIONS + 4; i++) sessions.add(initialize());
        assertEquals(404, ping(sessions.get(0)), "the oldest sessions ended for the newest");
        assertEquals(200, ping(sessions.get(sessions.size() - 1)));
        // a session neither used nor streaming through a whole sweep interval (1 s here) ends
        String idle = sessions.get(sessions.size() - 2);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int status = 200;
        while (status == 200 && System.nanoTime() < deadline) {
            Thread.sleep(2_500); // longer than two sweeps: each ping counts as use
            status = ping(idle);
        }
        assertEquals(404, status, "the idle session expired");
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static String initialize() throws Exception {
        HttpResponse<String> reply = post(null, INITIALIZE);
        assertEquals(200, reply.statusCode(), reply.body());
        return reply.headers().firstValue("mcp-session-id").orElseThrow();
    }

    private static int ping(String session) throws Exception {
        return post(session, "{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"ping\"}").statusCode();
    }

    private static HttpResponse<String> post(String session, String body) throws Exception {
        return post(endpoint.uri(), session, body);
    }

    private static HttpResponse<String> post(URI url, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) request.header("mcp-session-id", session);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
