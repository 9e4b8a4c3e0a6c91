package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.toolcoach.openai.OpenAiException.Kind;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.ScriptedBackend;
import dev.toolcoach.testkit.ScriptedServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives the real server with the real client over loopback; the model is a scripted backend. In the testkit, not
 * in openai: the scripted backend is a test double and lives here, and the testkit depends on openai.
 */
class ServerClientTest {

    private static final String MODEL = "scripted-7b";
    private static final List<ChatMessage> QUESTION = List.of(ChatMessage.user("What is the weather in Oslo?"));
    private static final List<ToolDefinition> TOOLS = List.of(ToolDefinition.function("weather", "Current weather",
            OpenAiJson.mapper().createObjectNode().put("type", "object")));

    @RegisterExtension
    private static final ScriptedServer server = ScriptedServer.start(MODEL);

    private static OpenAiClient client() {
        return new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)
                .withRetries(3, Duration.ofMillis(10), Duration.ofMillis(50)));
    }

    @Test
    void listsTheServedModel() {
        assertEquals(List.of(MODEL), client().models().data().stream().map(ModelCard::id).toList());
        assertTrue(server.baseUrl().startsWith("http://127.0.0.1:"), server.baseUrl());
    }

    @Test
    void toolCallsAreMappedFromTheActionFormat() {
        server.backend().reply("<think>check the weather tool</think><tool_call>[{\"name\": \"weather\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>");
        ChatResponse reply = client().chat(ChatRequest.of(QUESTION).withTools(TOOLS).withTemperature(0.2).withMaxTokens(64));
        Choice choice = reply.choices().get(0);
        assertEquals("tool_calls", choice.finishReason());
        assertNull(choice.message().content());
        assertEquals("check the weather tool", choice.message().reasoningContent());
        ChatToolCall call = choice.message().toolCalls().get(0);
        assertEquals("weather", call.function().name());
        assertEquals("{\"city\":\"Oslo\"}", call.function().arguments());
        BackendRequest seen = last();
        assertEquals("weather", seen.tools().get(0).function().name());
        assertEquals(0.2, seen.sampling().temperature());
        assertEquals(64, seen.sampling().maxTokens());
    }

    @Test
    void streamingDeliversTheAnswerInPiecesAndAddsUpToIt() {
        server.backend().reply("<think>it is known</think><answer>Sunny and 21 degrees in Oslo.</answer>");
        List<ChatChunk> chunks = new ArrayList<>();
        ChatResponse reply = client().chatStreaming(ChatRequest.of(QUESTION), chunks::add);
        assertEquals("Sunny and 21 degrees in Oslo.", reply.text());
        assertEquals("it is known", reply.message().reasoningContent());
        assertEquals("stop", reply.choices().get(0).finishReason());
        long contentChunks = chunks.stream().filter(c -> c.choices().get(0).delta().content() != null).count();
        assertTrue(contentChunks > 3, "expected the answer in several chunks, got " + contentChunks);
        assertEquals("assistant", chunks.get(0).choices().get(0).delta().role());
    }

    @Test
    void streamingToolCallsArriveWhole() {
        server.backend().reply("<tool_call>[{\"name\": \"weather\", \"arguments\": {\"city\": \"Bergen\"}}]</tool_call>");
        ChatResponse reply = client().chatStreaming(ChatRequest.of(QUESTION).withTools(TOOLS), c -> { });
        assertEquals("tool_calls", reply.choices().get(0).finishReason());
        assertEquals(new FunctionCall("weather", "{\"city\":\"Bergen\"}"), reply.message().toolCalls().get(0).function());
    }

    @Test
    void jsonRepliesAreRequestedFromTheBackend() throws IOException {
        server.backend().reply("{\"city\": \"Oslo\", \"celsius\": 21}");
        ChatResponse reply = client().chat(ChatRequest.of(QUESTION).withResponseFormat(ResponseFormat.jsonObject()));
        assertTrue(last().jsonReply());
        JsonNode json = OpenAiJson.mapper().readTree(reply.text());
        assertEquals(21, json.get("celsius").asInt());
    }

    @Test
    void serverErrorsAreRetriedThenReported() {
        server.backend().fail("out of memory").fail("out of memory").reply("<answer>ok</answer>");
        assertEquals("ok", client().chat(ChatRequest.of(QUESTION)).text());

        server.backend().fail("device lost").fail("device lost");
        OpenAiClient oneRetry = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)
                .withRetries(1, Duration.ofMillis(10), Duration.ofMillis(10)));
        OpenAiException e = assertThrows(OpenAiException.class, () -> oneRetry.chat(ChatRequest.of(QUESTION)));
        assertEquals(Kind.SERVER_ERROR, e.kind());
        assertEquals(500, e.status());
        assertTrue(e.getMessage().contains("after 1 retries") && e.getMessage().endsWith(": generation failed"), e.getMessage());
        assertFalse(e.getMessage().contains("device lost"), "a server error is not described to the client: " + e.getMessage());
    }

    @Test
    void badRequestsAreRejectedWithTheReason() {
        OpenAiException model = assertThrows(OpenAiException.class,
                () -> client().chat(ChatRequest.of(QUESTION).withModel("gpt-9")));
        assertEquals(Kind.REQUEST_REJECTED, model.kind());
        assertTrue(model.getMessage().contains("the requested model is not served here; available: scripted-7b"), model.getMessage());
        OpenAiException temp = assertThrows(OpenAiException.class,
                () -> client().chat(ChatRequest.of(QUESTION).withTemperature(7)));
        assertEquals(400, temp.status());
        assertTrue(temp.getMessage().contains("temperature must be a number in [0, 2]"), temp.getMessage());
    }

    @Test
    void malformedBodiesGet400WithTheReason() throws Exception {
        HttpClient raw = HttpClient.newHttpClient();
        for (String body : List.of("{not json", "{\"model\": \"scripted-7b\"}", "{\"messages\": []}")) {
            HttpResponse<String> reply = raw.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, reply.statusCode(), body);
            String message = OpenAiJson.mapper().readTree(reply.body()).path("error").path("message").asText();
            assertTrue(message.startsWith("request body is not a valid chat request") || message.equals("messages must not be empty"),
                    message);
        }
    }

    @Test
    void failureDuringAStreamReachesTheClient() {
        server.backend().fail("decoder crashed");
        OpenAiException e = assertThrows(OpenAiException.class, () -> client().chatStreaming(ChatRequest.of(QUESTION), c -> { }));
        assertEquals(Kind.STREAM_ERROR, e.kind());
        assertTrue(e.getMessage().endsWith("failed: generation failed"), e.getMessage());
    }

    @Test
    void wrongOrMissingKeyIsUnauthorized() {
        try (OpenAiServer guarded = OpenAiServer.start(server.backend(), ServerSettings.loopback(0).withApiKey("sk-right"))) {
            OpenAiConfig base = OpenAiConfig.of(guarded.baseUrl(), MODEL);
            OpenAiException none = assertThrows(OpenAiException.class, () -> new OpenAiClient(base).models());
            assertEquals(Kind.UNAUTHORIZED, none.kind());
            assertTrue(none.getMessage().contains("no API key given"), none.getMessage());
            OpenAiException wrong = assertThrows(OpenAiException.class,
                    () -> new OpenAiClient(base.withApiKey("sk-wrong-999")).chat(ChatRequest.of(QUESTION)));
            assertEquals(401, wrong.status());
            assertFalse(wrong.getMessage().contains("sk-wrong-999"), "the key must not appear in errors");
            assertEquals(List.of(MODEL), new OpenAiClient(base.withApiKey("sk-right")).models().data().stream()
                    .map(ModelCard::id).toList());
        }
    }

    @Test
    void unreachableEndpointIsNamed() throws IOException {
        int closedPort = FreePorts.pick();
        OpenAiClient c = new OpenAiClient(OpenAiConfig.of("http://127.0.0.1:" + closedPort + "/v1", MODEL));
        OpenAiException e = assertThrows(OpenAiException.class, () -> c.chat(ChatRequest.of(QUESTION)));
        assertEquals(Kind.UNREACHABLE, e.kind());
        assertTrue(e.getMessage().startsWith("cannot reach http://127.0.0.1:" + closedPort + "/v1/chat/completions"), e.getMessage());
    }

    @Test
    void slowReplyTimesOut() {
        CountDownLatch gate = new CountDownLatch(1);
        server.backend().hold(gate, "<answer>late</answer>");
        OpenAiClient impatient = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)
                .withRequestTimeout(Duration.ofMillis(300)));
        try {
            OpenAiException e = assertThrows(OpenAiException.class, () -> impatient.chat(ChatRequest.of(QUESTION)));
            assertEquals(Kind.TIMEOUT, e.kind());
            assertTrue(e.getMessage().contains("within 300 ms"), e.getMessage());
            // on a loaded machine the request may reach the model only after the client gave up: it must take the held
            // reply, not a later test's
            awaitTrue(() -> server.backend().active() == 1, "held generation to start");
        } finally {
            gate.countDown();
        }
        awaitTrue(() -> server.backend().active() == 0, "held generation to finish");
    }

    @Test
    void stalledStreamTimesOut() {
        CountDownLatch gate = new CountDownLatch(1);
        server.backend().hold(gate, "<answer>late</answer>");
        OpenAiClient impatient = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), MODEL)
                .withRequestTimeout(Duration.ofMillis(300)));
        List<ChatChunk> received = new ArrayList<>();
        try {
            OpenAiException e = assertThrows(OpenAiException.class,
                    () -> impatient.chatStreaming(ChatRequest.of(QUESTION), received::add));
            assertEquals(Kind.TIMEOUT, e.kind());
            assertTrue(e.getMessage().endsWith("stalled: no data for 300 ms"), e.getMessage());
            assertEquals(1, received.size(), "the role chunk came before the stall");
        } finally {
            gate.countDown();
        }
        awaitTrue(() -> server.backend().active() == 0, "held generation to finish");
    }

    @Test
    void busyServerAnswers429AndTheClientHonoursRetryAfter() {
        ScriptedBackend single = new ScriptedBackend(MODEL);
        CountDownLatch gate = new CountDownLatch(1);
        single.hold(gate, "<answer>first</answer>").reply("<answer>second</answer>");
        try (OpenAiServer one = OpenAiServer.start(single, ServerSettings.loopback(0).withMaxConcurrentGenerations(1))) {
            OpenAiClient c = new OpenAiClient(OpenAiConfig.of(one.baseUrl(), MODEL)
                    .withRetries(5, Duration.ofMillis(10), Duration.ofMillis(10)));
            CompletableFuture<ChatResponse> first = CompletableFuture.supplyAsync(() -> c.chat(ChatRequest.of(QUESTION)));
            awaitTrue(() -> single.active() == 1, "first generation to start");
            long start = System.nanoTime();
            CompletableFuture<ChatResponse> second = CompletableFuture.supplyAsync(() -> c.chat(ChatRequest.of(QUESTION)));
            awaitTrue(() -> one.busyRejections() >= 1, "second request to be turned away");
            gate.countDown();
            assertEquals("second", second.join().text());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() >= 1000,
                    "the client must wait the server's Retry-After (1 s), not its own 10 ms backoff");
            assertEquals("first", first.join().text());
        }
    }

    @Test
    void aStreamsSlotIsFreeByTheTimeItsClientReadsDone() {
        // as many clients as slots, each asking again the moment it reads [DONE] (as OpenAI's clients stop there, before
        // the stream's end): none may be turned away
        int clients = 8;
        int each = 25;
        ScriptedBackend backend = new ScriptedBackend(MODEL);
        for (int i = 0; i < clients * each; i++) backend.reply("<answer>reply</answer>");
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0).withMaxConcurrentGenerations(clients))) {
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\": \"" + MODEL + "\", \"stream\": true, \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"))
                    .build();
            List<CompletableFuture<Void>> loops = new ArrayList<>();
            for (int k = 0; k < clients; k++) {
                loops.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < each; i++) {
                        HttpResponse<Stream<String>> response = send(http, request);
                        try (Stream<String> lines = response.body()) {
                            assertEquals(200, response.statusCode());
                            assertTrue(lines.anyMatch("data: [DONE]"::equals), "a stream without [DONE]");
                        }
                    }
                }, pool));
            }
            loops.forEach(CompletableFuture::join);
            assertEquals(0, server.busyRejections(), "requests sent right after their client's last [DONE] were turned away");
        } finally {
            pool.shutdownNow();
        }
    }

    private static HttpResponse<Stream<String>> send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void clientCapsRequestsInFlight() {
        ScriptedBackend slow = new ScriptedBackend(MODEL);
        CountDownLatch gate = new CountDownLatch(1);
        for (int i = 0; i < 4; i++) slow.hold(gate, "<answer>" + i + "</answer>");
        try (OpenAiServer wide = OpenAiServer.start(slow, ServerSettings.loopback(0).withMaxConcurrentGenerations(4))) {
            OpenAiClient two = new OpenAiClient(OpenAiConfig.of(wide.baseUrl(), MODEL).withMaxConcurrency(2));
            List<CompletableFuture<ChatResponse>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) calls.add(CompletableFuture.supplyAsync(() -> two.chat(ChatRequest.of(QUESTION))));
            awaitTrue(() -> slow.active() == 2, "two generations to be in flight");
            gate.countDown();
            calls.forEach(CompletableFuture::join);
            assertEquals(2, slow.peakConcurrency());
            assertEquals(4, slow.requests().size());
        }
    }

    @Test
    void replyWithoutChoicesIsAnError() throws IOException {
        HttpServer broken = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        broken.createContext("/v1/chat/completions", exchange -> {
            byte[] body = "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        broken.start();
        try {
            OpenAiClient c = new OpenAiClient(OpenAiConfig.of("http://127.0.0.1:" + broken.getAddress().getPort() + "/v1", MODEL));
            OpenAiException e = assertThrows(OpenAiException.class, () -> c.chat(ChatRequest.of(QUESTION)));
            assertEquals(Kind.NO_CHOICES, e.kind());
            assertTrue(e.getMessage().endsWith("has no choices"), e.getMessage());
        } finally {
            broken.stop(0);
        }
    }

    private static BackendRequest last() {
        List<BackendRequest> all = server.backend().requests();
        return all.get(all.size() - 1);
    }

    private static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            LockSupport.parkNanos(1_000_000);
        }
    }
}
