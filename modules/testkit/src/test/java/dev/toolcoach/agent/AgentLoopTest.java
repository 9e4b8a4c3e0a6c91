package dev.toolcoach.agent;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.testkit.FunctionTools;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceJson;
import dev.toolcoach.trace.TracePrinter;
import dev.toolcoach.trace.TraceWarnings;
import dev.toolcoach.trace.Turn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentLoopTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);
    private static final ToolSpec ADD = ToolSpec.of("add", "Adds two numbers.", """
            {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}""");
    private static final ToolSpec MEET = ToolSpec.of("meet", "Waits until the other call of the turn runs too.", "{}");
    private static final ToolSpec DUMP = ToolSpec.of("dump", "Returns a very long text.", "{}");
    private static final ToolSpec HANG = ToolSpec.of("hang", "Never answers.", "{}");
    private static final ToolSpec FAIL = ToolSpec.of("fail", "Always throws.", "{}");

    private final ByteTokenizer tokenizer = ByteTokenizer.chatMl();
    private final ChatMlFormat chat = new ChatMlFormat();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    private static String call(String name, String args) {
        return "<think>use " + name + "</think><tool_call>[{\"name\": \"" + name + "\", \"arguments\": " + args
                + "}]</tool_call>";
    }

    private static String answer(String a) {
        return "<think>done</think><answer>" + a + "</answer>";
    }

    private FunctionTools arithmetic() {
        return new FunctionTools(POOL).add(ADD, args -> new BigDecimal(args.get("a").toString())
                .add(new BigDecimal(args.get("b").toString())).toPlainString());
    }

    private Trace run(ReplayGenerator model, ToolEnvironment tools, AgentConfig config) throws Exception {
        AgentLoop loop = new AgentLoop(tokenizer, chat, model, tools, config);
        return loop.run(new RolloutRequest("r-1", "g-1", "q-1", "What is 2 + 3.5, plus 4?", Map.of("gold", "9.5")))
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static AgentConfig config() {
        return AgentConfig.defaults().withLimits(6, 4096).withTools(Duration.ofSeconds(10), 4000);
    }

    @Test
    void multiTurnRunRecordsEveryTurnAndExactTokens() throws Exception {
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                call("add", "{\"a\": 2, \"b\": 3.5}"), call("add", "{\"a\": 5.5, \"b\": 4}"), answer("9.5")));
        Trace trace = run(model, arithmetic(), config());

        assertEquals(Termination.ANSWER, trace.termination());
        assertEquals("9.5", trace.finalAnswer());
        assertEquals(3, trace.turns().size());
        assertEquals("<tool_response>\n5.5\n</tool_response>", trace.turns().get(0).toolOutput());
        assertEquals("9.5", trace.turns().get(1).actionOutput().get(0).text());
        assertNull(trace.turns().get(2).toolOutput());
        assertEquals("9.5", trace.metadata().get("gold"));
        Turn last = trace.turns().get(2);
        assertEquals(List.of("system", "user", "assistant", "tool", "assistant", "tool", "assistant"),
                last.formattedConversation().stream().map(Message::role).toList());
        assertTokenInvariants(trace, model);
        assertEquals(List.of(), TraceWarnings.of(trace), TracePrinter.print(trace));
        assertEquals(ActionFormat.TOOL_N1.systemPrompt(List.of(ADD)), last.formattedConversation().get(0).content());
        Trace back = TraceJson.fromJson(TraceJson.toJson(trace));
        assertEquals(trace.turns(), back.turns(), "the turns survive JSON Lines");
        assertEquals(trace.tokens(), back.tokens(), "the tokens survive JSON Lines");
        assertEquals(TraceJson.toJson(trace), TraceJson.toJson(back), "numbers in metadata may narrow, nothing else changes");
    }

    /** The learner's contract: the context only grows by generated ids (mask 1) and observations (mask 0). */
    private void assertTokenInvariants(Trace trace, ReplayGenerator model) {
        TokenRecord tokens = trace.tokens();
        List<Message> opening = trace.turns().get(0).formattedConversation().subList(0, 2);
        assertEquals(List.of("system", "user"), opening.stream().map(Message::role).toList());
        assertEquals(trace.query(), opening.get(1).content());
        String firstPrompt = chat.renderPrompt(opening);
        assertArrayEquals(tokenizer.encode(firstPrompt), Arrays.copyOf(tokens.tokenIds(), tokens.promptLength()));
        assertEquals(firstPrompt, trace.turns().get(0).promptForModel());

        List<GenerationRequest> requests = model.requests();
        List<Generation> replies = model.replies();
        assertEquals(trace.turns().size(), requests.size());
        int expectedLength = tokens.promptLength();
        int[] expectedMask = new int[tokens.length()];
        for (int t = 0; t < trace.turns().size(); t++) {
            Turn turn = trace.turns().get(t);
            assertEquals(expectedLength, turn.tokenStart(), "turn " + t + " starts where the context ended");
            assertArrayEquals(Arrays.copyOf(tokens.tokenIds(), turn.tokenStart()), requests.get(t).context(),
                    "turn " + t + " was generated from exactly the recorded context");
            assertEquals(turn.promptForModel(), tokenizer.decode(requests.get(t).context()));
            Generation reply = replies.get(t);
            int g = turn.tokenStart();
            assertArrayEquals(reply.tokenIds(), Arrays.copyOfRange(tokens.tokenIds(), g, g + reply.length()));
            assertArrayEquals(reply.logprobs(), Arrays.copyOfRange(tokens.behaviorLogprobs(), g, g + reply.length()));
            assertArrayEquals(reply.policyVersions(), Arrays.copyOfRange(tokens.policyVersions(), g, g + reply.length()));
            Arrays.fill(expectedMask, g, g + reply.length(), 1);
            if (turn.toolOutput() != null && turn.tokenEnd() > g + reply.length()) {
                String observation = tokenizer.decode(Arrays.copyOfRange(tokens.tokenIds(), g + reply.length(), turn.tokenEnd()));
                assertTrue(observation.contains(turn.toolOutput()), observation);
            }
            expectedLength = turn.tokenEnd();
        }
        assertEquals(tokens.length(), expectedLength, "context = prompt + sum(generated + observation)");
        assertArrayEquals(expectedMask, tokens.lossMask(), "mask is 1 exactly on generated tokens");
        for (int i = 0; i < tokens.length(); i++) {
            if (tokens.lossMask()[i] == 0) {
                assertEquals(-1, tokens.policyVersions()[i]);
                assertEquals(0f, tokens.behaviorLogprobs()[i]);
            }
        }
    }

    @Test
    void onlyThePromptAndEachObservationAreEverTokenised() throws Exception {
        RecordingTokenizer recording = new RecordingTokenizer(tokenizer);
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                call("add", "{\"a\": 2, \"b\": 3.5}"), answer("5.5")));
        Trace trace = new AgentLoop(recording, chat, model, arithmetic(), config())
                .run(new RolloutRequest("r-2", "g", "q", "2 + 3.5?", Map.of())).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(List.of(trace.turns().get(0).promptForModel(),
                "\n<|im_start|>user\n" + trace.turns().get(0).toolOutput() + "<|im_end|>\n<|im_start|>assistant\n"),
                recording.texts);
    }

    @Test
    void callsOfOneTurnRunConcurrently() throws Exception {
        CountDownLatch bothStarted = new CountDownLatch(2);
        FunctionTools tools = arithmetic().add(MEET, args -> {
            bothStarted.countDown();
            try {
                // only reachable if the other call runs at the same time; a sequential loop would time out here
                return bothStarted.await(10, TimeUnit.SECONDS) ? "met" : "alone";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        });
        String twoCalls = "<think>both</think><tool_call>[{\"name\":\"meet\",\"arguments\":{}},"
                + "{\"name\":\"meet\",\"arguments\":{}}]</tool_call>";
        Trace trace = run(ReplayGenerator.chatMl(tokenizer, List.of(twoCalls, answer("ok"))), tools, config());
        assertEquals(List.of("met", "met"), trace.turns().get(0).actionOutput().stream().map(ToolResult::text).toList());
        assertEquals("<tool_response>\nmet\n</tool_response>\n<tool_response>\nmet\n</tool_response>",
                trace.turns().get(0).toolOutput());
    }

    @Test
    void longToolOutputIsCutInTheMiddleWithAMarker() throws Exception {
        String huge = "HEAD" + "x".repeat(10_000) + "TAIL";
        FunctionTools tools = arithmetic().add(DUMP, args -> huge);
        Trace trace = run(ReplayGenerator.chatMl(tokenizer, List.of(call("dump", "{}"), answer("ok"))), tools,
                config().withTools(Duration.ofSeconds(10), 100));
        ToolResult result = trace.turns().get(0).actionOutput().get(0);
        assertTrue(result.truncated());
        assertEquals("HEAD" + "x".repeat(46) + "\n[... 9908 characters truncated ...]\n" + "x".repeat(46) + "TAIL",
                result.text());
        assertTrue(trace.turns().get(0).toolOutput().contains("characters truncated"));
        assertEquals(List.of("turn 1: output of tool 'dump' was truncated"), TraceWarnings.of(trace));
        assertEquals(Termination.ANSWER, trace.termination());
    }

    @Test
    void hangingAndFailingToolsBecomeErrorObservations() throws Exception {
        FunctionTools tools = arithmetic()
                .addAsync(HANG, args -> new CompletableFuture<>())
                .add(FAIL, args -> {
                    throw new IllegalStateException("disk on fire");
                });
        String both = "<think>try</think><tool_call>[{\"name\":\"hang\",\"arguments\":{}},"
                + "{\"name\":\"fail\",\"arguments\":{}},{\"name\":\"add\",\"arguments\":{\"a\":1,\"b\":1}}]</tool_call>";
        RecordingTokenizer recording = new RecordingTokenizer(tokenizer);
        ExecutorService loopThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "agent-loop"));
        Trace trace;
        try {
            trace = new AgentLoop(recording, chat, ReplayGenerator.chatMl(tokenizer, List.of(both, answer("2"))), tools,
                    config().withTools(Duration.ofMillis(200), 4000), loopThread)
                    .run(new RolloutRequest("r-3", "g", "q", "?", Map.of())).toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            loopThread.shutdownNow();
        }
        assertEquals(List.of("agent-loop", "agent-loop"), recording.threads,
                "the loop goes on on its own executor, not on the timeout timer's thread");
        List<ToolResult> results = trace.turns().get(0).actionOutput();
        assertEquals(ToolResult.Status.TIMEOUT, results.get(0).status());
        assertEquals("Error: tool 'hang' gave no result within 200 ms", results.get(0).text());
        assertEquals(ToolResult.Status.ERROR, results.get(1).status());
        assertEquals("Error: tool 'fail' failed: IllegalStateException: disk on fire", results.get(1).text());
        assertEquals("2", results.get(2).text(), "a working call of the same turn still answers");
        assertTrue(trace.turns().get(0).toolOutput().contains("gave no result within 200 ms"));
        assertEquals(Termination.ANSWER, trace.termination());
    }

    @Test
    void malformedReplyIsRecordedAndTheModelIsToldSoItCanRecover() throws Exception {
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                call("multiply", "{\"a\": 2, \"b\": 3}"), call("add", "{\"a\": 2, \"b\": 3}"), answer("5")));
        Trace trace = run(model, arithmetic(), config());
        Turn bad = trace.turns().get(0);
        assertEquals(ParseError.Kind.UNKNOWN_TOOL, bad.parsedCompletion().parseError().kind());
        assertTrue(bad.actionOutput().isEmpty(), "nothing was run");
        assertTrue(bad.toolOutput().startsWith("<tool_response>\nError: your reply could not be used "
                + "(UNKNOWN_TOOL: there is no tool named 'multiply'"), bad.toolOutput());
        assertTrue(trace.turns().get(1).promptForModel().endsWith(bad.toolOutput() + "<|im_end|>\n<|im_start|>assistant\n"),
                "the model saw the error");
        assertEquals(Termination.ANSWER, trace.termination());
        assertEquals("5", trace.finalAnswer());
        assertTokenInvariants(trace, model);
    }

    @Test
    void stopsAtTheTurnLimit() throws Exception {
        String again = call("add", "{\"a\": 1, \"b\": 1}");
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(again, again, again, again));
        Trace trace = run(model, arithmetic(), config().withLimits(2, 4096));
        assertEquals(Termination.MAX_TURNS, trace.termination());
        assertEquals(2, trace.turns().size());
        assertEquals(2, model.requests().size());
        assertNull(trace.finalAnswer());
        assertTokenInvariants(trace, model);
    }

    @Test
    void stopsAtTheTokenBudgetWithoutExceedingIt() throws Exception {
        String again = call("add", "{\"a\": 1, \"b\": 1}");
        ReplayGenerator probe = ReplayGenerator.chatMl(tokenizer, List.of(again, again, again, again, again, again));
        int promptLength = run(probe, arithmetic(), config().withLimits(1, 100_000)).tokens().promptLength();
        int budget = promptLength + 150; // room for one reply and its observation, then a reply cut short

        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(again, again, again, again, again, again));
        Trace trace = run(model, arithmetic(), config().withLimits(6, budget));
        assertEquals(Termination.MAX_TOKENS, trace.termination());
        assertTrue(trace.tokens().length() <= budget, trace.tokens().length() + " > " + budget);
        for (GenerationRequest r : model.requests()) {
            assertTrue(r.context().length + r.sampling().maxNewTokens() <= budget, "never asked beyond the budget");
        }
        assertTokenInvariants(trace, model);
    }

    @Test
    void replyCutByTheTokenLimitIsClosedBeforeTheObservation() throws Exception {
        AgentConfig config = new AgentConfig(ActionFormat.TOOL_N1, SamplingParams.greedy(20), 3, 4096,
                Duration.ofSeconds(10), 4000);
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(call("add", "{\"a\": 1, \"b\": 1}"),
                "<answer>2</answer>"));
        Trace trace = run(model, arithmetic(), config);
        Turn cut = trace.turns().get(0);
        assertEquals(FinishReason.MAX_TOKENS, model.replies().get(0).finishReason());
        assertEquals(ParseError.Kind.UNCLOSED_TAG, cut.parsedCompletion().parseError().kind());
        assertTrue(trace.turns().get(1).promptForModel().endsWith(cut.modelCompletion() + "<|im_end|>\n<|im_start|>user\n"
                + cut.toolOutput() + "<|im_end|>\n<|im_start|>assistant\n"), trace.turns().get(1).promptForModel());
        assertEquals(Termination.ANSWER, trace.termination());
        assertTokenInvariants(trace, model);
    }

    @Test
    void engineFailureEndsTheRunWithErrorAndKeepsWhatHappened() throws Exception {
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(call("add", "{\"a\": 1, \"b\": 1}")));
        Trace trace = run(model, arithmetic(), config());
        assertEquals(Termination.ERROR, trace.termination());
        assertEquals("IllegalStateException: the script has only 1 replies", trace.error());
        assertEquals(1, trace.turns().size());
        assertEquals("2", trace.turns().get(0).actionOutput().get(0).text());
        assertTokenInvariants(trace, model);
    }

    /** Passes through to a real tokenizer, noting what it encodes and on which thread. */
    private static final class RecordingTokenizer implements Tokenizer {
        final List<String> texts = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();
        private final Tokenizer inner;

        RecordingTokenizer(Tokenizer inner) {
            this.inner = inner;
        }

        @Override
        public int[] encode(String text) {
            texts.add(text);
            threads.add(Thread.currentThread().getName());
            return inner.encode(text);
        }

        @Override
        public String decode(int[] ids) {
            return inner.decode(ids);
        }

        @Override
        public Map<String, Integer> specialTokens() {
            return inner.specialTokens();
        }
    }

    /** An environment offering {@code add} whose execution is {@code execute}. */
    private static ToolEnvironment environment(Function<List<ToolCall>, List<CompletionStage<ToolResult>>> execute) {
        return new ToolEnvironment() {
            @Override
            public List<ToolSpec> specs() {
                return List.of(ADD);
            }

            @Override
            public List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
                return execute.apply(calls);
            }
        };
    }

    @Test
    void brokenToolEnvironmentIsAnErrorObservationOrAnErrorEnd() throws Exception {
        ToolEnvironment throwing = environment(calls -> {
            throw new IllegalStateException("tool node unreachable");
        });
        Trace recovered = run(ReplayGenerator.chatMl(tokenizer, List.of(call("add", "{\"a\": 1, \"b\": 1}"),
                answer("?"))), throwing, config());
        assertEquals("Error: the tool environment failed: IllegalStateException: tool node unreachable",
                recovered.turns().get(0).actionOutput().get(0).text());
        assertEquals(Termination.ANSWER, recovered.termination());

        ToolEnvironment lossy = environment(calls -> List.of());
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(call("add", "{\"a\": 1, \"b\": 1}")));
        Trace ended = run(model, lossy, config());
        assertEquals(Termination.ERROR, ended.termination());
        assertEquals("IllegalStateException: the tool environment answered 0 results for 1 calls", ended.error());
        assertEquals(1, ended.turns().size(), "the reply is kept as a turn");
        assertEquals(List.of("turn 1: 1 tool call(s) but no tool output",
                "no final answer: the run ended with ERROR (" + ended.error() + ")"), TraceWarnings.of(ended));
        assertTokenInvariants(ended, model);
    }

    @Test
    void promptLongerThanTheBudgetEndsBeforeAnyGeneration() throws Exception {
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(answer("1")));
        Trace trace = run(model, arithmetic(), config().withLimits(3, 50));
        assertEquals(Termination.MAX_TOKENS, trace.termination());
        assertTrue(trace.turns().isEmpty());
        assertTrue(model.requests().isEmpty(), "the model is not asked when there is no room");
        assertEquals(trace.tokens().promptLength(), trace.tokens().length());
    }

    @Test
    void hermesFormatTakesAPlainReplyAsTheAnswer() throws Exception {
        AgentConfig hermes = new AgentConfig(ActionFormat.HERMES, SamplingParams.greedy(512), 4, 4096,
                Duration.ofSeconds(10), 4000);
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}\n</tool_call>\n"
                        + "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 5, \"b\": 4}}\n</tool_call>",
                "The sums are 5 and 9."));
        Trace trace = run(model, arithmetic(), hermes);
        assertEquals(List.of("5", "9"), trace.turns().get(0).actionOutput().stream().map(ToolResult::text).toList());
        assertEquals("The sums are 5 and 9.", trace.finalAnswer());
        assertTrue(trace.turns().get(0).promptForModel().contains("<tools>\n{\"type\": \"function\""));
        assertTokenInvariants(trace, model);
    }

    @Test
    void llama3JsonFormatCallsWithABareObjectAndAnswersInPlainText() throws Exception {
        AgentConfig llama = new AgentConfig(ActionFormat.LLAMA3_JSON, SamplingParams.greedy(512), 4, 4096,
                Duration.ofSeconds(10), 4000);
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "{\"name\": \"add\", \"parameters\": {\"a\": 2, \"b\": 3}}",
                "{\"name\": \"add\", \"arguments\": {\"a\": 5, \"b\": 4}}",
                "The sum is 5."));
        Trace trace = run(model, arithmetic(), llama);
        assertEquals(List.of("5"), trace.turns().get(0).actionOutput().stream().map(ToolResult::text).toList());
        assertEquals(dev.toolcoach.trace.ParseError.Kind.MALFORMED_JSON, trace.turns().get(1).parsedCompletion().parseError().kind(),
                "strictly, Llama 3's calls carry \"parameters\"");
        assertEquals("The sum is 5.", trace.finalAnswer());
        assertTrue(trace.turns().get(0).promptForModel().contains("\"parameters\": dictionary of argument name and its value"));
        assertTokenInvariants(trace, model);
    }

    /** One loop serves rollouts of different seeds: the seed rides in the request, the loop's own is the fallback. */
    @Test
    void theRequestsSeedOverridesTheLoopsOnlyForThatRollout() throws Exception {
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(answer("1"), answer("2")));
        AgentConfig config = config().withSampling(new SamplingParams(0.7f, 0, 1f, 64, 5L));
        AgentLoop loop = new AgentLoop(tokenizer, chat, model, new FunctionTools(POOL), config);
        RolloutRequest seeded = new RolloutRequest("g-1/0", "g-1", "q-1", "What is 1?", Map.of()).seededFrom(5L);
        assertEquals(5L * 31 + "g-1/0".hashCode(), seeded.seed().getAsLong(), "base seed × 31 + the rollout id's hash");
        loop.run(seeded).toCompletableFuture().get(30, TimeUnit.SECONDS);
        loop.run(new RolloutRequest("g-1/1", "g-1", "q-1", "What is 2?", Map.of())).toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(seeded.seed().getAsLong(), model.requests().get(0).sampling().seed());
        assertEquals(5L, model.requests().get(1).sampling().seed(), "a request without a seed samples with the loop's");
        assertEquals(0.7f, model.requests().get(0).sampling().temperature(), "only the seed changes");
    }
}
