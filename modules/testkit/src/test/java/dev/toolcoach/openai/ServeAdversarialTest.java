package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.testkit.RawHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve} as an attacker on loopback meets it: the real server over a backend that answers at once, each case
 * bounded and stopping by itself.
 */
class ServeAdversarialTest {

    private static final String MESSAGES = "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
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
