package dev.toolcoach.agent;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.chat.TemplateInput;
import dev.toolcoach.chat.ConversationFile;
import dev.toolcoach.chat.JinjaChatTemplate;
import dev.toolcoach.chat.jinja.JinjaTemplate;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native codecs against the shared renderings (made with Python's jinja2 as Transformers configures it): the
 * assistant turn each template renders for the case's tool call is exactly what the codec writes and reads back,
 * Hermes' system prompt and tool results are the Qwen templates' own text, and Phi-4-mini's tools reach its template's
 * system turn.
 */
class NativeFormatRenderingsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode roundTripCase() throws IOException {
        return JSON.readTree(SharedData.require("chat_templates/cases/tool-round-trip.json").toFile());
    }

    private static String expected(String model) throws IOException {
        return Files.readString(SharedData.require("chat_templates/expected/" + model + "/tool-round-trip.txt"));
    }

    /** The case's assistant tool calls, arguments in their order and JSON number types. */
    private static List<ToolCall> calls(JsonNode c) {
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode m : c.get("messages")) {
            for (JsonNode call : m.path("tool_calls")) {
                calls.add(new ToolCall(call.at("/function/name").asText(), JSON.convertValue(call.at("/function/arguments"),
                        new TypeReference<LinkedHashMap<String, Object>>() { })));
            }
        }
        return calls;
    }

    private static List<ToolSpec> tools(JsonNode c) {
        List<ToolSpec> tools = new ArrayList<>();
        for (JsonNode t : c.get("tools")) {
            JsonNode f = t.get("function");
            tools.add(new ToolSpec(f.get("name").asText(), f.get("description").asText(), f.get("parameters")));
        }
        return tools;
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        assertTrue(from >= 0, "no " + start + " in " + text);
        from += start.length();
        return text.substring(from, text.indexOf(end, from));
    }

    private static void assertReadsBack(ActionFormat format, String assistantTurn, JsonNode c) {
        List<ToolCall> calls = calls(c);
        assertEquals(assistantTurn, format.codec().writeCalls(calls), "the codec writes what the template renders");
        ParsedCompletion read = format.codec().readStrict(assistantTurn, new ArgumentValidator(tools(c)));
        assertTrue(read.valid(), String.valueOf(read.parseError()));
        assertEquals(calls, read.toolCalls());
        Map<String, Object> args = read.toolCalls().get(0).arguments();
        assertEquals(List.of("principal", "annual_rate", "years"), List.copyOf(args.keySet()));
        assertEquals(Integer.class, args.get("principal").getClass(), "10000 stays an integer");
        assertEquals(Double.class, args.get("annual_rate").getClass());
    }

    @ParameterizedTest
    @ValueSource(strings = {"qwen2.5-instruct", "qwen3"})
    void hermesIsWhatTheQwenTemplatesTeach(String model) throws IOException {
        JsonNode c = roundTripCase();
        String rendered = expected(model);
        String assistantTurn = between(rendered, "<|im_start|>assistant\n", "<|im_end|>");
        assertReadsBack(ActionFormat.HERMES, assistantTurn, c);

        String system = between(rendered, "<|im_start|>system\n", "<|im_end|>");
        assertEquals(c.at("/messages/0/content").asText() + "\n\n" + ActionFormat.HERMES.systemPrompt(tools(c)), system,
                "the client's system message, then Hermes' prompt, is the template's system turn with tools");

        ChatMlFormat chat = new ChatMlFormat();
        String results = chat.renderMessage(chat.toolResponses(List.of(c.at("/messages/3/content").asText())));
        assertTrue(rendered.contains(results), "results as one user turn of <tool_response> blocks are what the template "
                + "makes of tool messages: " + results);
        assertTrue(!ActionFormat.HERMES.resultsInToolRole());
    }

    /**
     * The whole round trip through the real template: the assistant turn as the codec writes it (plain content) and
     * the tool result as a named tool message render byte for byte as the template renders structured tool calls
     * and tool messages (Qwen: a user turn of tool_response blocks; Llama 3: the ipython role).
     */
    @ParameterizedTest
    @ValueSource(strings = {"qwen2.5-instruct:hermes", "qwen3:hermes", "llama-3.2-instruct:llama3-json"})
    void codecTextAndNamedResultsRenderAsTheTemplateRendersToolCalls(String modelAndFormat) throws IOException {
        String model = modelAndFormat.split(":")[0];
        ActionFormat format = ActionFormat.named(modelAndFormat.split(":")[1]);
        Path root = SharedData.require("chat_templates");
        TemplateInput request = ConversationFile.read(root.resolve("cases/tool-round-trip.json"));
        JsonNode c = roundTripCase();
        List<Message> messages = new ArrayList<>(request.messages().subList(0, 2));
        messages.add(Message.assistant(format.codec().writeCalls(calls(c))));
        messages.add(Message.toolResult("calculate_loan_payment", c.at("/messages/3/content").asText()));
        String rendered = sharedTemplate(model).render(new TemplateInput(messages, request.tools(), true, request.templateKwargs()));
        assertEquals(expected(model), rendered);
    }

    private static JinjaChatTemplate sharedTemplate(String model) throws IOException {
        Path root = SharedData.require("chat_templates");
        return new JinjaChatTemplate(Map.of("default", Files.readString(root.resolve("templates/" + model + ".jinja"))),
                HfModelFolder.specialTokens(root.resolve("templates/" + model + ".tokens.json")), Clock.systemUTC());
    }

    /**
     * Phi-4-mini's template renders an assistant turn's content only (the shared case's structured call renders as an
     * empty turn), so the agent sends the codec's {@code functools[...]} text as the content: the round trip then
     * renders as the shared rendering with exactly that text in the assistant turn, and the result in the tool role.
     */
    @Test
    void phiCallsRenderAsAssistantContentThroughTheRealTemplate() throws IOException {
        JsonNode c = roundTripCase();
        TemplateInput request = ConversationFile.read(SharedData.require("chat_templates/cases/tool-round-trip.json"));
        String written = ActionFormat.PHI.codec().writeCalls(calls(c));
        assertEquals("functools[{\"name\": \"calculate_loan_payment\", \"arguments\": {\"principal\": 10000, "
                + "\"annual_rate\": 0.05, \"years\": 7}}]", written);
        List<Message> messages = new ArrayList<>(request.messages().subList(0, 2));
        messages.add(Message.assistantCalls(ActionFormat.PHI.codec().contentBesideCalls(written), calls(c)));
        messages.add(Message.toolResult("calculate_loan_payment", c.at("/messages/3/content").asText()));
        String rendered = sharedTemplate("phi-4-mini-instruct")
                .render(new TemplateInput(messages, request.tools(), true, request.templateKwargs()));
        String expected = expected("phi-4-mini-instruct");
        assertTrue(expected.contains("<|assistant|><|end|><|tool|>141.34<|end|>"), expected);
        assertEquals(expected.replace("<|assistant|><|end|>", "<|assistant|>" + written + "<|end|>"), rendered);
        assertReadsBack(ActionFormat.PHI, between(rendered, "<|assistant|>", "<|end|>"), c);
        assertTrue(ActionFormat.PHI.resultsInToolRole());
    }

    /**
     * The template offers tools only from a system message's {@code tools} field; the system message the agent sends
     * (its content carrying the tools block) renders exactly as the template renders that field.
     */
    @Test
    void phiSystemMessageRendersAsTheTemplatesToolsField() throws IOException {
        JsonNode c = roundTripCase();
        List<ToolSpec> tools = tools(c);
        Path root = SharedData.require("chat_templates");
        String source = Files.readString(root.resolve("templates/phi-4-mini-instruct.jinja"));
        Map<String, Object> system = new LinkedHashMap<>();
        system.put("role", "system");
        system.put("content", ActionFormat.PHI.templateSystemPrompt().orElseThrow());
        // the model card's json.dumps(tools) of name, description and parameters
        String toolsJson = "[{\"name\": \"calculate_loan_payment\", \"description\": \"Monthly payment of a fixed-rate loan.\", "
                + "\"parameters\": {\"type\": \"object\", \"properties\": {\"principal\": {\"type\": \"number\", "
                + "\"description\": \"Amount borrowed\"}, \"annual_rate\": {\"type\": \"number\", \"description\": "
                + "\"Yearly rate, e.g. 0.05\"}, \"years\": {\"type\": \"integer\", \"description\": \"Term in years\"}}, "
                + "\"required\": [\"principal\", \"annual_rate\", \"years\"]}}]";
        system.put("tools", toolsJson);
        Map<String, Object> vars = new LinkedHashMap<>(HfModelFolder.specialTokens(root.resolve("templates/phi-4-mini-instruct.tokens.json")));
        vars.put("messages", List.of(system));
        vars.put("add_generation_prompt", true);
        String withField = JinjaTemplate.parse(source).render(vars);
        assertTrue(withField.contains("<|tool|>" + toolsJson + "<|/tool|><|end|>"), withField);

        String ours = sharedTemplate("phi-4-mini-instruct")
                .render(TemplateInput.of(List.of(Message.system(ActionFormat.PHI.templateSystemMessage(tools))), true));
        assertEquals(withField, ours);
        assertTrue(ActionFormat.PHI.systemPrompt(tools).endsWith("<|tool|>" + toolsJson + "<|/tool|>"),
                "the server's system prompt (client's first) ends with the same block");
    }

    @Test
    void llama3JsonIsWhatTheLlamaTemplateTeaches() throws IOException {
        JsonNode c = roundTripCase();
        String rendered = expected("llama-3.2-instruct");
        String assistantTurn = between(rendered, "<|start_header_id|>assistant<|end_header_id|>\n\n", "<|eot_id|>");
        assertReadsBack(ActionFormat.LLAMA3_JSON, assistantTurn, c);
        assertTrue(rendered.contains("Respond in the format {\"name\": function name, \"parameters\": dictionary of argument "
                + "name and its value}.Do not use variables."));
        assertTrue(ActionFormat.LLAMA3_JSON.systemPrompt(tools(c)).contains("Respond in the format {\"name\": function name, "
                + "\"parameters\": dictionary of argument name and its value}.Do not use variables.\n\n"), "the template's wording");
        assertTrue(rendered.contains("<|start_header_id|>ipython<|end_header_id|>\n\n"), "the template's tool role is ipython");
        assertTrue(ActionFormat.LLAMA3_JSON.resultsInToolRole(), "so results go to the template as tool messages");
    }
}
