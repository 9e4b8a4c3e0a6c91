package dev.toolcoach.openai;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server in front of the agent's model interfaces (here the scripted engine with ChatML and a byte tokenizer). */
class GeneratorBackendTest {

    private static final List<ToolDefinition> TOOLS = List.of(ToolDefinition.function("weather", "Current weather",
            OpenAiJson.mapper().createObjectNode().put("type", "object")));

    @Test
    void rendersToolsAndHistoryForTheModelAndMapsItsCallBack() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator engine = ReplayGenerator.chatMl(tokenizer, List.of(
                "<think>need Bergen too</think><tool_call>[{\"name\": \"weather\", \"arguments\": {\"city\": \"Bergen\"}}]</tool_call>",
                "<think>long</think><answer>this reply is far longer than four tokens</answer>",
                "{\"city\": \"Oslo\"}"));
        GeneratorBackend backend = new GeneratorBackend("tiny", engine, tokenizer, new ChatMlFormat(), ActionFormat.TOOL_N1);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "tiny"));
            ChatMessage earlierCall = new ChatMessage("assistant", null, List.of(new ChatToolCall("c1", "function",
                    new FunctionCall("weather", "{\"city\":\"Oslo\"}"))), null, null, null);
            ChatResponse reply = client.chat(ChatRequest.of(List.of(ChatMessage.system("Be brief."),
                    ChatMessage.user("Weather in Oslo and Bergen?"), earlierCall, ChatMessage.toolReply("c1", "sunny")))
                    .withTools(TOOLS).withTemperature(0).withSeed(7));

            assertEquals("tool_calls", reply.choices().get(0).finishReason());
            assertEquals(new FunctionCall("weather", "{\"city\":\"Bergen\"}"), reply.message().toolCalls().get(0).function());

            GenerationRequest seen = engine.requests().get(0);
            String prompt = tokenizer.decode(seen.context());
            assertTrue(prompt.startsWith("<|im_start|>system\nBe brief.\n\nYou are a helpful assistant"), prompt);
            assertTrue(prompt.contains("\"name\":\"weather\""), prompt);
            assertTrue(prompt.contains("<|im_start|>assistant\n<tool_call>\n[{\"name\":\"weather\",\"arguments\":{\"city\":\"Oslo\"}}]\n</tool_call><|im_end|>"), prompt);
            assertTrue(prompt.contains("<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>"), prompt);
            assertTrue(prompt.endsWith("<|im_start|>assistant\n"), prompt);
            assertEquals(0f, seen.sampling().temperature());
            assertEquals(7L, seen.sampling().seed());

            ChatResponse cut = client.chat(ChatRequest.of(List.of(ChatMessage.user("again"))).withMaxTokens(4));
            assertEquals("length", cut.choices().get(0).finishReason());
            assertEquals(4, cut.usage().completionTokens());

            ChatResponse json = client.chat(ChatRequest.of(List.of(ChatMessage.user("city?")))
                    .withResponseFormat(ResponseFormat.jsonObject()));
            assertEquals("{\"city\": \"Oslo\"}", json.text());
            assertTrue(tokenizer.decode(engine.requests().get(2).context())
                    .startsWith("<|im_start|>system\nReply with one JSON object only, no other text.<|im_end|>"));
        }
    }

    @Test
    void aToolSchemaTheModelCannotTakeIsABadRequest() {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        GeneratorBackend backend = new GeneratorBackend("tiny", ReplayGenerator.chatMl(tokenizer, List.of()), tokenizer,
                new ChatMlFormat(), ActionFormat.TOOL_N1);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            OpenAiClient client = new OpenAiClient(OpenAiConfig.of(server.baseUrl(), "tiny"));
            List<ToolDefinition> bad = List.of(ToolDefinition.function("weather", "x",
                    OpenAiJson.mapper().createArrayNode().add(1)));
            OpenAiException e = org.junit.jupiter.api.Assertions.assertThrows(OpenAiException.class,
                    () -> client.chat(ChatRequest.of(List.of(ChatMessage.user("hi"))).withTools(bad)));
            assertEquals(400, e.status());
            assertTrue(e.getMessage().contains("tools[0]: a tool's parameters must be a JSON schema object"), e.getMessage());
        }
    }

    /**
     * OpenAI's {@code stop}: the reply ends where the first stop string begins (one string or a list); what this server
     * does not return ({@code n} other than 1, {@code logprobs}, {@code top_logprobs}) is a 400, never silently dropped.
     */
    @Test
    void stopStringsCutTheReplyAndWhatIsNotServedIsRefused() throws Exception {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator engine = ReplayGenerator.chatMl(tokenizer, List.of(
                "<answer>one. two. three.</answer>", "<answer>alpha beta</answer>", "<answer>ok</answer>"));
        GeneratorBackend backend = new GeneratorBackend("tiny", engine, tokenizer, new ChatMlFormat(), ActionFormat.TOOL_N1);
        try (OpenAiServer server = OpenAiServer.start(backend, ServerSettings.loopback(0))) {
            java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
            String url = server.baseUrl() + "/chat/completions";
            String user = "\"messages\": [{\"role\": \"user\", \"content\": \"count\"}]";

            java.net.http.HttpResponse<String> cut = post(http, url, "{" + user + ", \"stop\": [\" two\", \"three\"]}");
            assertEquals(200, cut.statusCode(), cut.body());
            com.fasterxml.jackson.databind.JsonNode reply = OpenAiJson.mapper().readTree(cut.body());
            assertEquals("one.", reply.at("/choices/0/message/content").asText(), cut.body());
            assertEquals("stop", reply.at("/choices/0/finish_reason").asText());
            java.net.http.HttpResponse<String> single = post(http, url, "{" + user + ", \"stop\": \"beta\"}");
            assertEquals("alpha", OpenAiJson.mapper().readTree(single.body()).at("/choices/0/message/content").asText().strip(), single.body());

            for (String[] refused : new String[][] {{"\"n\": 2", "n must be 1: this server returns one choice per request"},
                    {"\"logprobs\": true", "logprobs and top_logprobs are not returned by this server"},
                    {"\"top_logprobs\": 3", "logprobs and top_logprobs are not returned by this server"},
                    {"\"stop\": [\"a\", \"b\", \"c\", \"d\", \"e\"]", "stop must be at most 4 non-empty strings"}}) {
                java.net.http.HttpResponse<String> r = post(http, url, "{" + user + ", " + refused[0] + "}");
                assertEquals(400, r.statusCode(), refused[0]);
                assertEquals(refused[1], OpenAiJson.mapper().readTree(r.body()).at("/error/message").asText(), r.body());
            }
            assertEquals(200, post(http, url, "{" + user + ", \"n\": 1, \"logprobs\": false}").statusCode(), "what is served is taken");
        }
    }

    private static java.net.http.HttpResponse<String> post(java.net.http.HttpClient http, String url, String body) throws Exception {
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    }
}
