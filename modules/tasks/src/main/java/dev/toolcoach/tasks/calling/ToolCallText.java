package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes the tool calls of a model output in the Tool-N1 format
 * ({@code <think>…</think><tool_call>[{"name": …, "arguments": {…}}]</tool_call>}); a block holding a
 * single call object (the Hermes/Qwen variant) is accepted too, and so are several blocks.
 *
 * <p>This is the checker's own small reader, not the agent's ActionParser: that one validates calls
 * against JSON Schema tool specs, which would turn a wrong name or argument into a parse error before
 * the checker can classify it, and does not know BFCL's Python-style types. It never throws on model
 * text: anything it cannot read comes back as a format error.
 */
public final class ToolCallText {

    private static final String OPEN = "<tool_call>";
    private static final String CLOSE = "</tool_call>";
    private static final int MAX_DEPTH = 64;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP_TYPE = new TypeReference<>() {
    };

    private ToolCallText() {
    }

    /** The calls read from a model output, or why there are none; {@code thinking} tells whether a think block came first. */
    public record Parsed(List<ToolCall> calls, String formatError, boolean thinking) {
        public Parsed {
            calls = List.copyOf(calls);
        }

        public boolean ok() {
            return formatError == null;
        }
    }

    public static Parsed parse(String output) {
        String text = output == null ? "" : output;
        int first = text.indexOf(OPEN);
        boolean thinking = hasThinkBefore(text, first < 0 ? text.length() : first);
        if (first < 0) return failure("no " + OPEN + " block", thinking);
        List<ToolCall> calls = new ArrayList<>();
        int at = first;
        while (at >= 0) {
            int end = text.indexOf(CLOSE, at + OPEN.length());
            if (end < 0) return failure(OPEN + " at offset " + at + " is never closed", thinking);
            String body = text.substring(at + OPEN.length(), end).trim();
            String error = readCalls(body, calls);
            if (error != null) return failure(error, thinking);
            at = text.indexOf(OPEN, end + CLOSE.length());
        }
        if (calls.isEmpty()) return failure("the " + OPEN + " block holds no calls", thinking);
        return new Parsed(calls, null, thinking);
    }

    /** The calls as one Tool-N1 block, arguments in their given order. */
    public static String render(List<ToolCall> calls) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ToolCall c : calls) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("arguments", c.arguments());
            out.add(m);
        }
        try {
            return OPEN + JSON.writeValueAsString(out) + CLOSE;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool call arguments are not JSON values: " + e.getOriginalMessage(), e);
        }
    }

    /** Deepest bracket nesting outside string literals; checked first because Jackson reads trees recursively. */
    private static int nestingDepth(String json) {
        int depth = 0;
        int max = 0;
        boolean inString = false;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') i++;
                else if (c == '"') inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                max = Math.max(max, ++depth);
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return max;
    }

    private static boolean hasThinkBefore(String text, int limit) {
        int open = text.indexOf("<think>");
        int close = text.indexOf("</think>");
        return open >= 0 && close > open && close < limit;
    }

    private static Parsed failure(String why, boolean thinking) {
        return new Parsed(List.of(), why, thinking);
    }

    /** Appends the calls in one block body; returns an error message, or null when all were read. */
    private static String readCalls(String body, List<ToolCall> into) {
        if (nestingDepth(body) > MAX_DEPTH) return "tool call JSON is nested deeper than " + MAX_DEPTH + " levels";
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return "tool call is not valid JSON: " + e.getOriginalMessage();
        }
        if (node == null) return "empty " + OPEN + " block";
        List<JsonNode> items = new ArrayList<>();
        if (node.isArray()) node.forEach(items::add);
        else items.add(node);
        for (JsonNode item : items) {
            if (!item.isObject() || !item.path("name").isTextual()) return "a tool call needs a string \"name\": " + item;
            JsonNode args = item.path("arguments");
            if (!args.isMissingNode() && !args.isObject()) return "arguments of " + item.get("name").asText() + " are not an object";
            Map<String, Object> arguments = args.isMissingNode() ? Map.of() : JSON.convertValue(args, MAP_TYPE);
            into.add(new ToolCall(item.get("name").asText(), arguments));
        }
        return null;
    }
}
