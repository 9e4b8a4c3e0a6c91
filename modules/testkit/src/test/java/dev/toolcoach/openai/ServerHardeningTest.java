package dev.toolcoach.openai;

import dev.toolcoach.openai.OpenAiException.Kind;
import dev.toolcoach.testkit.ScriptedServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Requests meant to kill the server: each is refused with a clear error and the next ordinary request is
 * answered. Before the nesting limit, the first one ended the JVM (a StackOverflowError on an Akka dispatcher
 * trips {@code akka.jvm-exit-on-fatal-error}).
 */
class ServerHardeningTest {

    private static final String MODEL = "scripted-7b";
    private static final int DEEP = 100_000;

    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start(MODEL);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void deeplyNestedToolCallArgumentsAre400AndTheServerStaysUp() throws Exception {
        String arguments = "{\\\"a\\\":".repeat(DEEP) + "1" + "}".repeat(DEEP); // {"a":{"a":...1}} inside a JSON string
        String body = "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"tool_calls\": "
                + "[{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"f\", \"arguments\": \"" + arguments + "\"}}]}]}";
        HttpResponse<String> reply = post(body);
        assertEquals(400, reply.statusCode(), reply.body());
        assertEquals("messages[1].tool_calls[0].function.arguments is nested deeper than 64 levels", errorMessage(reply));
        assertAnswersNormally();
    }

    @Test
    void aDeeplyNestedBodyIs400() throws Exception {
        String schema = "{\"a\":".repeat(DEEP) + "1" + "}".repeat(DEEP);
        String body = "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"tools\": [{\"type\": \"function\", "
                + "\"function\": {\"name\": \"f\", \"parameters\": " + schema + "}}]}";
        HttpResponse<String> reply = post(body);
        assertEquals(400, reply.statusCode(), reply.body());
        assertEquals("request body is not a valid chat request: JSON is nested deeper than 64 levels", errorMessage(reply));
        assertAnswersNormally();
    }

    @Test
    void aBodyOverTheLimitIs413BeforeItIsRead() throws Exception {
        URI uri = URI.create(server.baseUrl());
        // only the headers: the declared length alone is refused, so nothing is sent (or buffered) for it
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: " + uri.getHost() + "\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + (5 * 1024 * 1024) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertEquals("HTTP/1.1 413 Payload Too Large", status);
        }
        assertAnswersNormally();
    }

    @Test
    void anErrorInsideGenerationIsA500NotADeadProcess() {
        server.backend().replyWith(r -> {
            throw new StackOverflowError("generation overflowed");
        });
        OpenAiException whole = assertThrows(OpenAiException.class, () -> client(0).chat(question()));
        assertEquals(500, whole.status());
        server.backend().replyWith(r -> {
            throw new StackOverflowError("streamed generation overflowed");
        });
        OpenAiException streamed = assertThrows(OpenAiException.class, () -> client(0).chatStreaming(question(), c -> { }));
        assertEquals(Kind.STREAM_ERROR, streamed.kind());
        assertTrue(streamed.getMessage().endsWith("failed: generation failed"), streamed.getMessage());
        assertFalse(streamed.getMessage().contains("overflowed"), "what went wrong inside is the log's, not the client's");
        assertAnswersNormally();
    }

    @Test
    void deeplyNestedArgumentsInAGeneratedReplyArePassedThroughAsText() {
        String deep = "{\"a\":".repeat(DEEP) + "1" + "}".repeat(DEEP);
        server.backend().reply("<tool_call>[{\"name\": \"f\", \"arguments\": \"" + deep.replace("\"", "\\\"") + "\"}]</tool_call>");
        ChatResponse reply = client(0).chat(question());
        assertTrue(reply.message().calls().isEmpty(), "too deep to be a call");
        assertAnswersNormally();
    }

    @Test
    void withoutAKeyTheServerStaysOnLoopback() {
        IllegalArgumentException open = assertThrows(IllegalArgumentException.class,
                () -> OpenAiServer.start(server.backend(), new ServerSettings("0.0.0.0", 0, "", 1)));
        assertTrue(open.getMessage().startsWith("refusing to serve on 0.0.0.0 without an API key"), open.getMessage());
        new ServerSettings("0.0.0.0", 0, "sk-set", 1).checkExposure();
        new ServerSettings("localhost", 0, "", 1).checkExposure();
    }

    private void assertAnswersNormally() {
        server.backend().reply("<answer>still here</answer>");
        assertEquals("still here", client(0).chat(question()).text());
    }

    private static ChatRequest question() {
        return ChatRequest.of(List.of(ChatMessage.user("ping")));
    }

    private static OpenAiClient client(int retries) {
        return new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL).withRetries(retries, java.time.Duration.ofMillis(10),
                java.time.Duration.ofMillis(10)));
    }

    private HttpResponse<String> post(String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String errorMessage(HttpResponse<String> reply) throws Exception {
        String message = OpenAiJson.mapper().readTree(reply.body()).path("error").path("message").asText();
        assertFalse(message.contains("[[[["), "the input is not echoed");
        return message;
    }
}
