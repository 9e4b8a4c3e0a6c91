package dev.toolcoach.openai;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.trace.Message;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Round trips of the native formats through the real server: a scripted model writes its family's own text,
 * the client gets OpenAI tool calls back, and the history it sends is rendered in the model's format.
 */
class NativeFormatServerTest {

    private static final List<ToolDefinition> TOOLS = List.of(ToolDefinition.function("weather", "Current weather",
            OpenAiJson.mapper().createObjectNode().put("type", "object")));
    private static final ChatMessage EARLIER_CALL = new ChatMessage("assistant", null, List.of(new ChatToolCall("c1", "function",
            new FunctionCall("weather", "{\"city\":\"Oslo\",\"days\":2}"))), null, null, null);
    private static final List<ChatMessage> HISTORY = List.of(ChatMessage.system("Be brief."),
            ChatMessage.user("Weather in Oslo and Bergen?"), EARLIER_CALL, ChatMessage.toolReply("c1", "sunny"));

    @Test
    void hermesCallsComeBackAsToolCallsAndHistoryIsRenderedAsQwenWritesIt() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        String calls = "<think>\nBergen and Trondheim too.\n</think>\n\n"
                + "<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Bergen\"}}\n</tool_call>\n"
                + "<tool_call>\n{\"name\": \"weather\", \"arguments\": {\"city\": \"Trondheim\", \"days\": 1.5}}\n</tool_call>";
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(calls, calls, "Sunny everywhere."));
        GeneratorBackend backend = new GeneratorBackend("qwen", model, tokenizer, new ChatMlFormat(), ActionFormat.HERMES);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "qwen"));
            ChatResponse reply = client.chat(ChatRequest.of(HISTORY).withTools(TOOLS));

            assertEquals("tool_calls", reply.choices().get(0).finishReason());
            assertEquals(List.of(new FunctionCall("weather", "{\"city\":\"Bergen\"}"),
                            new FunctionCall("weather", "{\"city\":\"Trondheim\",\"days\":1.5}")),
                    reply.message().toolCalls().stream().map(ChatToolCall::function).toList());
            assertEquals("Bergen and Trondheim too.", reply.message().reasoningContent());
            assertNull(reply.message().content());

            String prompt = tokenizer.decode(model.requests().get(0).context());
            assertTrue(prompt.startsWith("<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions"), prompt);
            assertTrue(prompt.contains("<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"weather\", "
                    + "\"description\": \"Current weather\", \"parameters\": {\"type\": \"object\"}}}\n</tools>"), prompt);
            assertTrue(prompt.contains("<|im_start|>assistant\n<tool_call>\n{\"name\": \"weather\", \"arguments\": "
                    + "{\"city\": \"Oslo\", \"days\": 2}}\n</tool_call><|im_end|>\n"
                    + "<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>\n<|im_start|>assistant\n"), prompt);

            List<ChatChunk> chunks = new ArrayList<>();
            ChatResponse streamed = client.chatStreaming(ChatRequest.of(HISTORY).withTools(TOOLS), chunks::add);
            assertEquals(reply.message().toolCalls().stream().map(ChatToolCall::function).toList(),
                    streamed.message().toolCalls().stream().map(ChatToolCall::function).toList());
            assertTrue(chunks.stream().noneMatch(c -> {
                String content = c.choices().get(0).delta().content();
                return content != null && content.contains("tool_call");
            }), "call blocks never stream as content");

            ChatResponse answer = client.chat(ChatRequest.of(List.of(ChatMessage.user("And now?"))).withTools(TOOLS));
            assertEquals("Sunny everywhere.", answer.text(), "a plain reply is the answer: Hermes has no <answer> tag");
            assertEquals("stop", answer.choices().get(0).finishReason());
        }
    }

    @Test
    void llamaJsonCallsComeBackAsToolCallsAndResultsStayToolMessages() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "{\"name\": \"weather\", \"parameters\": {\"city\": \"Bergen\", \"days\": 3}}", "It is sunny in Oslo."));
        GeneratorBackend backend = new GeneratorBackend("llama", model, tokenizer, new ChatMlFormat(), ActionFormat.LLAMA3_JSON);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "llama"));
            ChatResponse reply = client.chat(ChatRequest.of(HISTORY).withTools(TOOLS));
            assertEquals(List.of(new FunctionCall("weather", "{\"city\":\"Bergen\",\"days\":3}")),
                    reply.message().toolCalls().stream().map(ChatToolCall::function).toList());
            assertEquals("tool_calls", reply.choices().get(0).finishReason());

            ChatResponse answer = client.chat(ChatRequest.of(List.of(ChatMessage.user("Oslo?"))));
            assertEquals("It is sunny in Oslo.", answer.text());
            assertTrue(answer.message().calls().isEmpty());
        }

        BackendRequest request = new BackendRequest(new ActionMessages(ActionFormat.LLAMA3_JSON).toActionMessages(HISTORY),
                TOOLS, RequestedSampling.of(ChatRequest.of(HISTORY)), false);
        List<Message> conversation = backend.conversation(request);
        assertTrue(conversation.get(0).content().startsWith("Be brief.\n\nYou have access to the following functions."),
                conversation.get(0).content());
        assertEquals(Message.assistant("{\"name\": \"weather\", \"parameters\": {\"city\": \"Oslo\", \"days\": 2}}"),
                conversation.get(2), "the earlier call as Llama 3 writes it");
        assertEquals(Message.toolResult("weather", "sunny"), conversation.get(3),
                "the result stays a tool message, for the template's own tool role (ipython)");
    }

    @Test
    void phiFunctoolsCallsComeBackAsToolCallsAndResultsStayToolMessages() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "functools[{\"name\": \"weather\", \"arguments\": {\"city\": \"Bergen\", \"days\": 3}}, "
                        + "{\"name\": \"weather\", \"arguments\": {\"city\": \"Molde\", \"days\": 1.5}}]",
                "It is sunny in Oslo."));
        GeneratorBackend backend = new GeneratorBackend("phi", model, tokenizer, new ChatMlFormat(), ActionFormat.PHI);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "phi"));
            ChatResponse reply = client.chat(ChatRequest.of(HISTORY).withTools(TOOLS));
            assertEquals(List.of(new FunctionCall("weather", "{\"city\":\"Bergen\",\"days\":3}"),
                            new FunctionCall("weather", "{\"city\":\"Molde\",\"days\":1.5}")),
                    reply.message().toolCalls().stream().map(ChatToolCall::function).toList());
            assertEquals("tool_calls", reply.choices().get(0).finishReason());

            ChatResponse answer = client.chat(ChatRequest.of(List.of(ChatMessage.user("Oslo?"))));
            assertEquals("It is sunny in Oslo.", answer.text());
            assertTrue(answer.message().calls().isEmpty());
        }

        BackendRequest request = new BackendRequest(new ActionMessages(ActionFormat.PHI).toActionMessages(HISTORY),
                TOOLS, RequestedSampling.of(ChatRequest.of(HISTORY)), false);
        List<Message> conversation = backend.conversation(request);
        assertTrue(conversation.get(0).content().startsWith("Be brief.\n\n") && conversation.get(0).content().endsWith(
                "<|tool|>[{\"name\": \"weather\", \"description\": \"Current weather\", \"parameters\": {\"type\": \"object\"}}]<|/tool|>"),
                "the tools end the system message, as Phi-4-mini's template writes its tools field: " + conversation.get(0).content());
        assertEquals(Message.assistant("functools[{\"name\": \"weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 2}}]"),
                conversation.get(2), "the earlier call as Phi-4-mini writes it");
        assertEquals(Message.toolResult("weather", "sunny"), conversation.get(3),
                "the result stays a tool message, for the template's own tool role");
    }
}
