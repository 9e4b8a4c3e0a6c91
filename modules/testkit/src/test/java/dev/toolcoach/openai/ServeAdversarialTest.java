package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.testkit.RawHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code serve} as an attacker on loopback meets it: the real server over a backend that answers at once, each case
 * bounded and stopping by itself.
 */
class ServeAdversarialTest {

    private static final String MESSAGES = "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int FLOOD = 2_000;
    private static OpenAiServer server;

    @BeforeAll
    static void start() {
        server = OpenAiServer.start(new AnsweringBackend(), ServerSettings.loopback(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void samplingValuesThatAreNotFiniteOrOutOfRangeAre400NamingTheField() throws Exception {
        Map<String, String> refused = Map.of(
                "\"temperature\": \"NaN\"", "temperature",
                "\"temperature\": \"Infinity\"", "temperature",
                "\"temperature\": -1e400", "temperature",
                "\"temperature\": 2.5", "temperature",
                "\"top_p\": \"NaN\"", "top_p",
                "\"top_p\": 1e400", "top_p",
                "\"top_p\": 0", "top_p",
                "\"max_tokens\": 0", "max_tokens");
        for (Map.Entry<String, String> c : refused.entrySet()) {
            HttpResponse<String> reply = chat("{" + MESSAGES + ", " + c.getKey() + "}");
            assertEquals(400, reply.statusCode(), c.getKey() + ": " + reply.body());
            assertTrue(errorMessage(reply).startsWith(c.getValue() + " must be"), c.getKey() + ": " + reply.body());
        }
        assertEquals(200, chat("{" + MESSAGES + ", \"temperature\": 2, \"top_p\": 1e-9}").statusCode());
    }

    @Test
    void errorsNeitherQuoteTheRequestNorNameJavaClasses() throws Exception {
        String secret = "SECRET-7f3a";
        List<String> bodies = List.of("{not json " + secret,
                "{\"messages\": \"" + secret + "\"}",
                "{" + MESSAGES + ", \"temperature\": \"" + secret + "\"}",
                "{" + MESSAGES + ", \"max_tokens\": \"" + secret + "\"}",
                "{" + MESSAGES + ", \"model\": \"" + secret + "\"}",
                "{\"messages\": [{\"role\": \"" + secret + "\", \"content\": \"hi\"}]}",
                "{\"messages\": [{\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c\", \"type\": \"function\", "
                        + "\"function\": {\"name\": \"f\", \"arguments\": \"{" + secret + "\"}}]}]}",
                "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"tools\": [{\"type\": \"" + secret + "\"}], \"x\": 1}");
        for (String body : bodies) {
            HttpResponse<String> reply = chat(body);
            assertTrue(reply.statusCode() >= 400 && reply.statusCode() < 500, body + ": " + reply.statusCode() + " " + reply.body());
            String message = errorMessage(reply);
            assertFalse(message.isBlank(), reply.body());
            for (String leak : List.of(secret, "java.", "com.fasterxml", "dev.toolcoach", "Exception", "`")) {
                assertFalse(reply.body().contains(leak), body + " answered " + reply.body());
            }
        }
    }

    @Test
    void withoutAKeyABrowserPageOrARebindingNameGetsNoGeneration() {
        URI url = URI.create(server.baseUrl() + "/chat/completions");
        String body = "{" + MESSAGES + "}";
        Map<String, String> page = RawHttp.loopbackHeaders(url, "text/plain");
        page.put("Origin", "http://evil.example");
        assertEquals(403, RawHttp.send("POST", url, page, body, TIMEOUT).status());
        assertEquals(403, RawHttp.send("POST", url, Map.of("Host", "evil.example:" + url.getPort(),
                "Content-Type", "application/json"), body, TIMEOUT).status());
        assertEquals(200, RawHttp.send("POST", url, RawHttp.loopbackHeaders(url, "application/json"), body, TIMEOUT).status());
    }

    /**
     * The measurement of issue 28: keyed requests during a flood of 2,000 connections from loopback (the same address),
     * each holding a partial request head. Before the head timeout and the connection gate, about 1,024 such connections
     * stopped the server from answering anyone for 10 s or more; now each is answered, the median well within 1 s.
     */
    @Test
    void keyedRequestsAreAnsweredWithinASecondDuringASlowFloodOf2000Connections() throws Exception {
        long descriptors = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getMaxFileDescriptorCount();
        assumeTrue(descriptors >= FLOOD + 2_048, "the flood needs " + (FLOOD + 2_048) + " file descriptors; ulimit -n is " + descriptors);
        try (OpenAiServer keyed = OpenAiServer.start(new AnsweringBackend(), ServerSettings.loopback(0).withApiKey("k"))) {
            URI models = URI.create(keyed.baseUrl() + "/models");
            List<Socket> flood = new ArrayList<>();
            List<Long> millis = new ArrayList<>();
            for (int i = 0; i < 5; i++) keyedRequest(models); // the server's first requests load its classes: not the flood's doing
            try {
                byte[] partialHead = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < FLOOD; i++) {
                    Socket s = new Socket();
                    flood.add(s);
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), models.getPort()), 5_000);
                    s.getOutputStream().write(partialHead);
                    if (i % 100 == 99) millis.add(keyedRequest(models));
                }
                for (int i = 0; i < 10; i++) millis.add(keyedRequest(models));
            } finally {
                for (Socket s : flood) s.close();
            }
            long max = millis.stream().mapToLong(Long::longValue).max().orElseThrow();
            long median = millis.stream().sorted().toList().get(millis.size() / 2);
            System.out.printf("keyed requests during a %d-connection slow flood from loopback: %d requests, median %d ms, max %d ms%n",
                    FLOOD, millis.size(), median, max);
            // the measurement is 1 s; the bound on the slowest one leaves room for a machine other jobs load as well
            assertTrue(median < 1_000 && max < 5_000, "keyed requests took " + millis + " ms");
        }
    }

    /** A keyed GET /v1/models on a connection of its own; its time in milliseconds (it must answer 200). */
    private static long keyedRequest(URI models) throws Exception {
        long start = System.nanoTime();
        RawHttp.Response reply = RawHttp.send("GET", models, Map.of("Host", "127.0.0.1:" + models.getPort(),
                "Authorization", "Bearer k"), "", Duration.ofSeconds(10));
        assertEquals(200, reply.status(), reply.body());
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    static HttpResponse<String> chat(String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String errorMessage(HttpResponse<String> reply) throws Exception {
        JsonNode body = OpenAiJson.mapper().readTree(reply.body());
        return body.path("error").path("message").asText();
    }

    /** Answers every request at once with a fixed reply. */
    private static final class AnsweringBackend implements ChatBackend {
        @Override
        public String modelId() {
            return "m";
        }

        @Override
        public ActionFormat actionFormat() {
            return ActionFormat.TOOL_N1;
        }

        @Override
        public BackendReply generate(BackendRequest request, Consumer<String> onText) {
            onText.accept("<answer>ok</answer>");
            return new BackendReply("<answer>ok</answer>", 1, 1, false);
        }
    }
}
