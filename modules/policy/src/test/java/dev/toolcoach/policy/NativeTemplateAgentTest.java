package dev.toolcoach.policy;

import dev.toolcoach.model.ComputeDevice;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.StyleTemplates;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.TraceWarnings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A native action format through a model folder's own chat template: the template offers the tools, renders the
 * reply's parsed calls and carries the results in its tool role; the agent appends what each rendering adds, or
 * starts a new context where the template rewrote what the model saw.
 */
class NativeTemplateAgentTest {

    private static final String QUERY = "What is 17 times 23?";
    private static final String CALL = "<tool_call>\n{\"name\": \"multiply\", \"arguments\": {\"a\": 17, \"b\": 23}}\n</tool_call>";

    private static final List<String> LLAMA_SPECIALS = List.of("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>");
    private static final int EOT_ID = ByteLevelTokenizerJson.firstSpecialId(List.of()) + 3;

    @TempDir
    static Path dir;
    private static ToolExecutor tools;

    @BeforeAll
    static void setUp() {
        tools = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults());
    }

    @AfterAll
    static void tearDown() {
        tools.close();
    }

    private static Path folder(String name, String template) throws Exception {
        Path model = TinyChatModel.write(dir.resolve(name), 11);
        Files.writeString(model.resolve("chat_template.jinja"), template);
        return model;
    }

    /** A tiny random Llama with Llama 3's header tokens, whose replies end with {@code <|eot_id|>}. */
    private static Path llamaFolder(String name, String template) throws Exception {
        return specialsFolder(name, LLAMA_SPECIALS, EOT_ID, template);
    }

    /** A tiny random model whose tokenizer has {@code specials}, replies ending with the token {@code eosId}. */
    private static Path specialsFolder(String name, List<String> specials, int eosId, String template) throws Exception {
        Path model = dir.resolve(name);
        ModelConfig config = new ModelConfig("llama", 32, 48, 2, 4, 2, ByteLevelTokenizerJson.vocabSize(specials, List.of()),
                4096, 1e-5f, 500_000f, false, false);
        Files.createDirectories(model);
        HfModelFolder.write(model, config, ModelWeights.randomHf(config, 13));
        ByteLevelTokenizerJson.write(model.resolve("tokenizer.json"), specials, List.of());
        Files.writeString(model.resolve("generation_config.json"), "{\"eos_token_id\": [" + eosId + "]}");
        Files.writeString(model.resolve("chat_template.jinja"), template);
        return model;
    }

    private static Trace run(LocalPolicy policy, ReplayGenerator generator) throws Exception {
        return run(policy, generator, ActionFormat.HERMES);
    }

    private static Trace run(LocalPolicy policy, ReplayGenerator generator, ActionFormat format) throws Exception {
        AgentConfig config = new AgentConfig(format, SamplingParams.greedy(256), 4, 4096, Duration.ofSeconds(10), 2000);
        AgentLoop loop = new AgentLoop(policy.tokenizer(), policy.chatFormat(), generator, tools, config);
        return loop.run(new RolloutRequest("r1", "g1", "q1", QUERY, Map.of())).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @Test
    void qwenTemplateOffersTheToolsAndCarriesTheResultsInItsToolRoleAsOneContext() throws Exception {
        Path template = SharedData.require("chat_templates").resolve("templates/qwen2.5-instruct.jinja");
        try (LocalPolicy policy = LocalPolicy.load(folder("qwen25", Files.readString(template)), null, null, 1, ComputeDevice.cpu())) {
            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), TinyChatModel.IM_END,
                    List.of(CALL, "17 times 23 is 391."), 0, 5L);
            Trace trace = run(policy, generator);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals("17 times 23 is 391.", trace.finalAnswer());
            assertEquals(1, trace.tokens().contextCount(), "Qwen2.5's template only appends");
            String prompt = policy.tokenizer().decode(generator.requests().get(0).context());
            assertTrue(prompt.contains("# Tools") && prompt.contains("\"name\": \"multiply\""), "the template offers the tools: " + prompt);
            assertEquals(prompt.indexOf("# Tools"), prompt.lastIndexOf("# Tools"), "the tools are offered once, by the template");

            List<Message> conversation = trace.turns().get(1).formattedConversation();
            Message reply = conversation.get(2);
            assertEquals(List.of(new ToolCall("multiply", Map.of("a", 17, "b", 23))), reply.toolCalls());
            assertEquals(Message.toolResult("multiply", "391"), conversation.get(3));
            // appending the template's additions equals rendering the whole conversation again
            String rendered = policy.chatFormat().template().orElseThrow().render(conversation.subList(0, 4),
                    tools.specs(), true);
            assertEquals(rendered, policy.tokenizer().decode(generator.requests().get(1).context()));
            assertTrue(rendered.endsWith(CALL + "<|im_end|>\n<|im_start|>user\n<tool_response>\n391\n</tool_response><|im_end|>\n"
                    + "<|im_start|>assistant\n"), rendered);
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
        }
    }

    @Test
    void aTemplateThatDropsEarlierThinkingStartsANewContextHoldingItsRendering() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(folder("thinking", StyleTemplates.QWEN_DROPPING_EARLIER_THINKING), null, null, 1, ComputeDevice.cpu())) {
            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), TinyChatModel.IM_END,
                    List.of("<think>I multiply.</think>\n" + CALL, "<think>Done.</think>\n391"), 0, 5L);
            Trace trace = run(policy, generator);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            TokenRecord record = trace.tokens();
            assertEquals(2, record.contextCount(), "the second turn was generated in a new context");
            String second = policy.tokenizer().decode(generator.requests().get(1).context());
            assertFalse(second.contains("I multiply."), "the template dropped the earlier thinking: " + second);
            assertTrue(second.contains("<|im_start|>assistant\n" + CALL + "<|im_end|>\n<|im_start|>user\n<tool_response>\n391\n"), second);
            assertEquals(record.contextStarts()[0], trace.turns().get(0).tokenEnd(), "turn 1 ends with its context");
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
            assertTrue(TraceWarnings.of(trace).isEmpty(), TraceWarnings.of(trace).toString());
        }
    }

    /**
     * The real Qwen3 template keeps a reply's thinking while no user turn follows it: a reply it cannot use gets
     * feedback as a user turn, after which the template renders that reply without its thinking, so the next turn
     * runs in a new context; the call and its result after that append to it.
     */
    @Test
    void qwen3TemplateDropsThinkingBeforeALaterUserTurnSoTheRunGoesOnInANewContext() throws Exception {
        Path template = SharedData.require("chat_templates").resolve("templates/qwen3.jinja");
        try (LocalPolicy policy = LocalPolicy.load(folder("qwen3", Files.readString(template)), null, null, 1, ComputeDevice.cpu())) {
            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), TinyChatModel.IM_END, List.of(
                    "<think>\nI should call it.\n</think>\n\n<tool_call>\n{\"name\": \"multiply\"\n</tool_call>",
                    "<think>\nRetry.\n</think>\n\n" + CALL,
                    "<think>\nDone.\n</think>\n\n391"), 0, 5L);
            Trace trace = run(policy, generator);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals("391", trace.finalAnswer());
            assertTrue(trace.turns().get(0).parsedCompletion().parseError() != null, "the first reply is unusable");
            assertEquals(2, trace.tokens().contextCount(), "one new context, after the feedback");
            String second = policy.tokenizer().decode(generator.requests().get(1).context());
            assertFalse(second.contains("I should call it."), "the template dropped the thinking before the feedback: " + second);
            assertTrue(second.contains("<|im_start|>user\nError: "), second);
            String third = policy.tokenizer().decode(generator.requests().get(2).context());
            assertTrue(third.startsWith(second) && third.contains("<think>\nRetry.\n</think>\n\n" + CALL
                    + "<|im_end|>\n<|im_start|>user\n<tool_response>\n391\n</tool_response><|im_end|>\n"), third);
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
            assertTrue(TraceWarnings.of(trace).stream().noneMatch(w -> w.contains("token")), TraceWarnings.of(trace).toString());
        }
    }

    /**
     * Like Qwen3's template, it writes an (empty) thinking block into the last reply, so a reply does not render as
     * the generation prompt followed by what the model wrote and the format's pieces cannot be cut from it: only a
     * native format can run on it, rendering whole conversations, where results follow the reply.
     */
    @Test
    void aTemplateThatRewritesTheReplyRunsNativeFormatsOnlyAndSaysSo() throws Exception {
        String rewrites = """
                {%- for message in messages %}
                {%- if message.role == 'assistant' %}{{- '<|im_start|>assistant\n' }}                {%- if loop.last %}{{- '<think>\n\n</think>\n\n' }}{%- endif %}{{- message.content }}\
                {%- for call in message.tool_calls %}{{- '<tool_call>\n{"name": "' + call.function.name + '", "arguments": ' }}\
                {{- call.function.arguments | tojson }}{{- '}\n</tool_call>' }}{%- endfor %}{{- '<|im_end|>\n' }}
                {%- elif message.role == 'tool' %}{{- '<|im_start|>user\n<tool_response>\n' + message.content + '\n</tool_response><|im_end|>\n' }}
                {%- else %}{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}{%- endif %}
                {%- endfor %}
                {%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}""";
        try (LocalPolicy policy = LocalPolicy.load(folder("rewrites", rewrites), null, null, 1, ComputeDevice.cpu())) {
            assertFalse(policy.chatFormat().appendsTurns());
            assertEquals(Set.of(TinyChatModel.IM_END), policy.chatFormat().stopTokenIds());
            AgentConfig toolN1 = new AgentConfig(ActionFormat.TOOL_N1, SamplingParams.greedy(8), 2, 4096, Duration.ofSeconds(10), 2000);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new AgentLoop(policy.tokenizer(),
                    policy.chatFormat(), new ReplayGenerator(policy.tokenizer(), TinyChatModel.IM_END, List.of(), 0, 5L), tools, toolN1));
            assertTrue(e.getMessage().contains("tool-n1") && e.getMessage().contains("hermes, llama3-json"), e.getMessage());

            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), TinyChatModel.IM_END, List.of(CALL, "391"), 0, 5L);
            Trace trace = run(policy, generator);
            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals(1, trace.tokens().contextCount(), "once results follow it, the reply renders as the model wrote it");
            assertTrue(policy.tokenizer().decode(generator.requests().get(1).context())
                    .endsWith("<|im_start|>assistant\n" + CALL + "<|im_end|>\n<|im_start|>user\n<tool_response>\n391\n</tool_response><|im_end|>\n<|im_start|>assistant\n"));
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
        }
    }

    @Test
    void llamaJsonCallsRoundTripWithTheirResultsUnderIpython() throws Exception {
        try (LocalPolicy policy = LocalPolicy.load(llamaFolder("llama", StyleTemplates.LLAMA3), null, null, 1, ComputeDevice.cpu())) {
            String call = "{\"name\": \"multiply\", \"parameters\": {\"a\": 17, \"b\": 23}}";
            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), EOT_ID, List.of(call, "It is 391."), 0, 5L);
            Trace trace = run(policy, generator, ActionFormat.LLAMA3_JSON);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals("It is 391.", trace.finalAnswer());
            assertEquals(List.of(new ToolCall("multiply", Map.of("a", 17, "b", 23))), trace.turns().get(0).parsedCompletion().toolCalls());
            assertEquals(1, trace.tokens().contextCount(), "the template renders the call as the model wrote it");
            String prompt = policy.tokenizer().decode(generator.requests().get(0).context());
            assertTrue(prompt.contains("Environment: ipython") && prompt.contains("\"name\": \"multiply\""), prompt);
            String second = policy.tokenizer().decode(generator.requests().get(1).context());
            assertTrue(second.endsWith("<|start_header_id|>assistant<|end_header_id|>\n\n" + call + "<|eot_id|>"
                    + "<|start_header_id|>ipython<|end_header_id|>\n\n391<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"), second);
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
        }
    }

    /**
     * Phi-4-mini's real template: the tools reach it as the system message's tools block, the {@code functools[...]}
     * reply renders back as the model wrote it and the result goes to its tool role, all in one context.
     */
    @Test
    void phiFunctoolsCallsRoundTripThroughPhi4MinisTemplateWithTheirResultsInItsToolRole() throws Exception {
        List<String> specials = List.of("<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|tool|>", "<|/tool|>");
        int end = ByteLevelTokenizerJson.firstSpecialId(List.of()) + 3;
        Path template = SharedData.require("chat_templates").resolve("templates/phi-4-mini-instruct.jinja");
        try (LocalPolicy policy = LocalPolicy.load(specialsFolder("phi", specials, end, Files.readString(template)), null, null, 1, ComputeDevice.cpu())) {
            String call = "functools[{\"name\": \"multiply\", \"arguments\": {\"a\": 17, \"b\": 23}}]";
            ReplayGenerator generator = new ReplayGenerator(policy.tokenizer(), end, List.of(call, "It is 391."), 0, 5L);
            Trace trace = run(policy, generator, ActionFormat.PHI);

            assertEquals(Termination.ANSWER, trace.termination(), trace.error());
            assertEquals("It is 391.", trace.finalAnswer());
            assertEquals(List.of(new ToolCall("multiply", Map.of("a", 17, "b", 23))), trace.turns().get(0).parsedCompletion().toolCalls());
            assertEquals(1, trace.tokens().contextCount(), "the template renders the call as the model wrote it");
            String prompt = policy.tokenizer().decode(generator.requests().get(0).context());
            assertTrue(prompt.startsWith("<|system|>") && prompt.contains("<|tool|>[{\"name\": ") && prompt.contains("{\"name\": \"multiply\"")
                    && prompt.contains("]<|/tool|><|end|><|user|>" + QUERY + "<|end|><|assistant|>"), prompt);
            String second = policy.tokenizer().decode(generator.requests().get(1).context());
            assertTrue(second.endsWith("<|assistant|>" + call + "<|end|><|tool|>391<|end|><|assistant|>"), second);
            assertRecordIsExactlyWhatTheModelSawAndSaid(trace, generator);
        }
    }

    /**
     * Each request's context is exactly its context in the record (from the context's start up to the reply), each
     * reply follows it with mask 1 and its log-probs and versions, and nothing else is marked generated.
     */
    private static void assertRecordIsExactlyWhatTheModelSawAndSaid(Trace trace, ReplayGenerator generator) {
        TokenRecord record = trace.tokens();
        List<GenerationRequest> requests = generator.requests();
        List<Generation> replies = generator.replies();
        int[] contexts = record.contextNumbers();
        int generated = 0;
        for (int r = 0; r < replies.size(); r++) {
            int start = trace.turns().get(r).tokenStart();
            int[] context = requests.get(r).context();
            int contextStart = start - context.length;
            assertTrue(contextStart == 0 || record.startsContext(contextStart), "request " + r + " saw a whole context");
            assertArrayEquals(context, Arrays.copyOfRange(record.tokenIds(), contextStart, start), "request " + r);
            assertEquals(contexts[contextStart], contexts[start + replies.get(r).length() - 1], "reply " + r + " stays in its context");
            Generation reply = replies.get(r);
            assertArrayEquals(reply.tokenIds(), Arrays.copyOfRange(record.tokenIds(), start, start + reply.length()));
            assertArrayEquals(reply.logprobs(), Arrays.copyOfRange(record.behaviorLogprobs(), start, start + reply.length()));
            for (int i = start; i < start + reply.length(); i++) assertEquals(1, record.lossMask()[i]);
            generated += reply.length();
        }
        assertEquals(generated, record.generatedCount(), "only the replies are marked generated");
    }
}
