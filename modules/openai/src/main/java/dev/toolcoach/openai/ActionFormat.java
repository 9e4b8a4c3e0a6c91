package dev.toolcoach.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.Message;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps between OpenAI chat messages and the Tool-N1 action format
 * ({@code <think>…</think>} then {@code <tool_call>[{"name", "arguments"}…]</tool_call>} or
 * {@code <answer>…</answer>}).
 *
 * <p>Reading a reply is lenient where the agent's parser is strict: the server must always answer,
 * so text that is not a valid action is passed through as plain content rather than rejected.
 */
final class ActionFormat {

    static final String THINK_OPEN = "<think>";
    static final String THINK_CLOSE = "</think>";
    static final String ANSWER_OPEN = "<answer>";
    static final String ANSWER_CLOSE = "</answer>";

    private static final Pattern THINK = Pattern.compile("<think>(.*?)</think>", Pattern.DOTALL);
    private static final Pattern TOOL_CALL = Pattern.compile("<tool_call>(.*?)</tool_call>", Pattern.DOTALL);

    private final ObjectMapper mapper = OpenAiJson.mapper();

    /** The conversation as the backend sees it; a malformed message is rejected naming its index. */
    List<Message> toActionMessages(List<ChatMessage> messages) {
        List<Message> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            String content = m.content() == null ? "" : m.content();
            switch (m.role()) {
                case "system", "user", "tool" -> out.add(new Message(m.role(), content));
                case "assistant" -> out.add(Message.assistant(assistantText(m, i)));
                default -> throw RejectedRequest.invalid("messages[" + i + "].role '" + m.role()
                        + "' is not one of system, user, assistant, tool");
            }
        }
        return out;
    }

    private String assistantText(ChatMessage m, int index) {
        StringBuilder text = new StringBuilder();
        if (m.reasoningContent() != null && !m.reasoningContent().isBlank()) {
            text.append(THINK_OPEN).append(m.reasoningContent().strip()).append(THINK_CLOSE).append('\n');
        }
        String content = m.content() == null ? "" : m.content().strip();
        if (m.calls().isEmpty()) {
            // a prior answer comes back from clients as bare text; restore the block the model wrote
            text.append(content.contains(ANSWER_OPEN) ? content : ANSWER_OPEN + content + ANSWER_CLOSE);
            return text.toString();
        }
        ArrayNode calls = mapper.createArrayNode();
        for (int c = 0; c < m.calls().size(); c++) {
            FunctionCall f = m.calls().get(c).function();
            String where = "messages[" + index + "].tool_calls[" + c + "].function";
            if (f == null || f.name() == null) throw RejectedRequest.invalid(where + " has no name");
            ObjectNode call = calls.addObject();
            call.put("name", f.name());
            call.set("arguments", argumentsObject(f.arguments(), where));
        }
        return text.append("<tool_call>\n").append(calls).append("\n</tool_call>").toString();
    }

    private JsonNode argumentsObject(String arguments, String where) {
        if (arguments == null || arguments.isBlank()) return mapper.createObjectNode();
        try {
            JsonNode node = mapper.readTree(arguments);
            if (!node.isObject()) throw RejectedRequest.invalid(where + ".arguments is not a JSON object: " + arguments);
            return node;
        } catch (JsonProcessingException e) {
            throw RejectedRequest.invalid(where + ".arguments is not valid JSON (" + e.getOriginalMessage() + ")");
        }
    }

    /**
     * Reads a generated turn: the answer if there is one, else the tool calls if their block parses,
     * else the plain text. A block cut off by the token limit counts up to where it stops, as it
     * does while streaming.
     */
    AssistantTurn readReply(String text) {
        String reasoning = blockSoFar(text, THINK_OPEN, THINK_CLOSE);
        String answer = blockSoFar(text, ANSWER_OPEN, ANSWER_CLOSE);
        List<FunctionCall> calls = toolCalls(text);
        String content;
        if (answer != null) content = answer;
        else if (!calls.isEmpty()) content = null;
        else content = withoutThinking(text);
        return new AssistantTurn(reasoning, content, calls);
    }

    private static String withoutThinking(String text) {
        String rest = THINK.matcher(text).replaceAll("");
        int unclosed = rest.indexOf(THINK_OPEN);
        return (unclosed < 0 ? rest : rest.substring(0, unclosed)).strip();
    }

    /** Every call in every tool_call block, or none when any block is not valid call JSON. */
    private List<FunctionCall> toolCalls(String text) {
        List<FunctionCall> calls = new ArrayList<>();
        Matcher m = TOOL_CALL.matcher(text);
        while (m.find()) {
            try {
                JsonNode block = mapper.readTree(m.group(1).strip());
                for (JsonNode call : block.isArray() ? block : List.of(block)) {
                    FunctionCall parsed = functionCall(call);
                    if (parsed == null) return List.of();
                    calls.add(parsed);
                }
            } catch (JsonProcessingException malformed) {
                return List.of();
            }
        }
        return calls;
    }

    private FunctionCall functionCall(JsonNode call) throws JsonProcessingException {
        if (call == null || !call.isObject() || !call.path("name").isTextual()) return null;
        JsonNode args = call.path("arguments");
        if (args.isTextual()) args = mapper.readTree(args.asText());
        if (args.isMissingNode() || args.isNull()) args = mapper.createObjectNode();
        if (!args.isObject()) return null;
        return new FunctionCall(call.get("name").asText(), mapper.writeValueAsString(args));
    }

    /**
     * The stripped text of a block that may still be open: null before {@code open} appears; after
     * it, everything up to {@code close}, or to the end minus a trailing partial {@code close}.
     */
    static String blockSoFar(String text, String open, String close) {
        int start = text.indexOf(open);
        if (start < 0) return null;
        start += open.length();
        int end = text.indexOf(close, start);
        if (end < 0) {
            end = text.length();
            for (int k = Math.min(close.length() - 1, end - start); k > 0; k--) {
                if (text.startsWith(close.substring(0, k), end - k)) {
                    end -= k;
                    break;
                }
            }
        }
        return text.substring(start, end).strip();
    }
}
