package dev.toolcoach.coachnode;

import dev.toolcoach.openai.ChatChunk;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.ChatRequest;
import dev.toolcoach.openai.ChatResponse;
import dev.toolcoach.openai.ModelCard;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiConfig;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@code serve} in-process on a free port with a tiny random Qwen2 folder, driven by the real OpenAI client. */
class ServeSubcommandTest {

    private static final Pattern SERVING = Pattern.compile("serving tiny at (http://127\\.0\\.0\\.1:\\d+/v1)");
    private static final ChatRequest QUESTION = ChatRequest.of(List.of(ChatMessage.system("Be brief."),
            ChatMessage.user("What is 17 times 23?"))).withTemperature(0).withSeed(7).withMaxTokens(24);

    @TempDir
    static Path dir;
    private static CliRun serve;
    private static CompletableFuture<Integer> exit;
    private static final String KEY = "sk-serve-test";
    private static String baseUrl;
    private static OpenAiClient client;

    @BeforeAll
    static void start() throws Exception {
        Path model = TinyChatModel.write(dir.resolve("tiny"), 21);
        serve = new CliRun();
        exit = CompletableFuture.supplyAsync(() -> serve.execute("serve", "--model", model.toString(), "--port", "0",
                "--api-key", KEY));
        baseUrl = awaitBaseUrl();
        client = new OpenAiClient(OpenAiConfig.of(baseUrl, "tiny").withApiKey(KEY).withRequestTimeout(Duration.ofSeconds(60)));
    }

    private static String awaitBaseUrl() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = SERVING.matcher(serve.out.toString());
            if (m.find()) return m.group(1);
            if (exit.isDone()) fail("serve exited early: " + exit.join() + " " + serve.err);
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("serve did not report its address within 60 s; stderr: " + serve.err);
    }

    @AfterAll
    static void stop() throws Exception {
        ((ServeCommand) serve.cli.getSubcommands().get("serve").getCommand()).stop();
        assertEquals(0, exit.get(30, TimeUnit.SECONDS), serve.err.toString());
    }

    @Test
    void listsTheServedModel() {
        assertEquals(List.of("tiny"), client.models().data().stream().map(ModelCard::id).toList());
        assertTrue(serve.out.toString().contains("(tool calls: tool-n1)"),
                "a model without its own chat template is served in Tool-N1: " + serve.out);
    }

    @Test
    void everyEndpointWantsTheKeyGivenWithApiKey() {
        OpenAiClient keyless = new OpenAiClient(OpenAiConfig.of(baseUrl, "tiny"));
        assertEquals(OpenAiException.Kind.UNAUTHORIZED, assertThrows(OpenAiException.class, keyless::models).kind());
        assertEquals(401, assertThrows(OpenAiException.class, () -> keyless.chat(QUESTION)).status());
        OpenAiClient wrong = new OpenAiClient(OpenAiConfig.of(baseUrl, "tiny").withApiKey("sk-wrong"));
        assertEquals(401, assertThrows(OpenAiException.class, () -> wrong.chat(QUESTION)).status());
        assertFalse(serve.err.toString().contains("no API key set"), serve.err.toString());
    }

    @Test
    void greedyChatIsWellFormedAndDeterministic() {
        ChatResponse first = client.chat(QUESTION);
        ChatResponse second = client.chat(QUESTION);
        assertEquals("tiny", first.model());
        assertEquals(1, first.choices().size());
        assertEquals("assistant", first.message().role());
        assertTrue(List.of("stop", "length").contains(first.choices().get(0).finishReason()), first.choices().get(0).finishReason());
        assertTrue(first.usage().promptTokens() > 0 && first.usage().completionTokens() > 0
                && first.usage().completionTokens() <= 24, first.usage().toString());
        assertEquals(first.usage().promptTokens() + first.usage().completionTokens(), first.usage().totalTokens());
        assertFalse(first.text().isBlank(), "the random model's greedy reply has visible text");
        assertEquals(first.text(), second.text());
        assertEquals(first.usage(), second.usage());
        assertNotEquals(first.id(), second.id());
    }

    @Test
    void streamingAddsUpToTheSameGreedyReply() {
        List<ChatChunk> chunks = new ArrayList<>();
        ChatResponse streamed = client.chatStreaming(QUESTION, chunks::add);
        assertFalse(chunks.isEmpty());
        assertEquals("assistant", chunks.get(0).choices().get(0).delta().role());
        assertEquals(client.chat(QUESTION).text(), streamed.text());
    }

    /** A request the model cannot take is the client's error, and only its own: the others of its batch are served. */
    @Test
    void aPromptLongerThanTheContextIs400AndFailsOnlyItself() {
        ChatRequest tooLong = ChatRequest.of(List.of(ChatMessage.user("x".repeat(5_000)))).withMaxTokens(4);
        List<CompletableFuture<ChatResponse>> others = new ArrayList<>();
        for (int i = 0; i < 3; i++) others.add(CompletableFuture.supplyAsync(() -> client.chat(QUESTION)));
        OpenAiException whole = assertThrows(OpenAiException.class, () -> client.chat(tooLong));
        assertEquals(400, whole.status(), whole.getMessage());
        assertEquals(OpenAiException.Kind.CONTEXT_LENGTH_EXCEEDED, whole.kind(), "OpenAI's code: a client tells it from a bad request");
        assertTrue(whole.getMessage().contains("and the model's context of 4096 leaves no room for a reply"), whole.getMessage());
        assertFalse(whole.getMessage().contains("xxxx"), "the prompt is not echoed");
        OpenAiException streamed = assertThrows(OpenAiException.class, () -> client.chatStreaming(tooLong, c -> { }));
        assertEquals(400, streamed.status(), streamed.getMessage());
        String first = client.chat(QUESTION).text();
        for (CompletableFuture<ChatResponse> other : others) assertEquals(first, other.join().text());
    }
}
