package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.UntrustedJson;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON inside one {@code <tool_call>} block: an array of calls (Tool-N1) or a single call
 * object (Hermes/Qwen), each {@code {"name": ..., "arguments": {...}}}.
 */
final class CallDecoder {

    /** Deeper JSON is rejected before anything recursive touches it (Jackson's conversion would overflow the stack). */
    static final int MAX_DEPTH = UntrustedJson.MAX_DEPTH;

    /** A decoded call whose arguments are still JSON, for validation against the tool's schema. */
    record RawCall(String name, JsonNode arguments) {
    }

    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private CallDecoder() {
    }

    static List<RawCall> decode(String blockContent) throws ActionRejected {
        if (blockContent.isBlank()) {
            throw new ActionRejected(ParseError.Kind.EMPTY_CALL, "the <tool_call> block is empty");
        }
        JsonNode root = readJson(blockContent);
        List<RawCall> calls = new ArrayList<>();
        if (root.isArray()) {
            if (root.isEmpty()) {
                throw new ActionRejected(ParseError.Kind.EMPTY_CALL, "the <tool_call> block holds an empty list of calls");
            }
            for (int i = 0; i < root.size(); i++) calls.add(toCall(root.get(i), "call " + (i + 1)));
        } else if (root.isObject()) {
            calls.add(toCall(root, "the call"));
        } else {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "a <tool_call> block must hold a call object "
                    + "{\"name\": ..., \"arguments\": {...}} or a list of them, not a JSON " + kind(root));
        }
        return calls;
    }

    /** Arguments as plain Java values (String, Integer, Long, Double, Boolean, List, Map, null). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> toJava(JsonNode arguments) {
        return STRICT.convertValue(arguments, Map.class);
    }

    private static JsonNode readJson(String text) throws ActionRejected {
        JsonNode root;
        try {
            root = UntrustedJson.readTree(STRICT, text, MAX_DEPTH);
        } catch (UntrustedJson.TooDeep e) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "the <tool_call> JSON is nested deeper than "
                    + MAX_DEPTH + " levels");
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "the <tool_call> block is not valid JSON: "
                    + firstLine(e.getOriginalMessage()) + where);
        }
        if (root == null || root.isMissingNode()) {
            throw new ActionRejected(ParseError.Kind.EMPTY_CALL, "the <tool_call> block holds no JSON value");
        }
        return root;
    }

    private static RawCall toCall(JsonNode node, String which) throws ActionRejected {
        if (!node.isObject()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " must be an object "
                    + "{\"name\": ..., \"arguments\": {...}}, not a JSON " + kind(node));
        }
        Iterator<String> fields = node.fieldNames();
        while (fields.hasNext()) {
            String field = fields.next();
            if (!field.equals("name") && !field.equals("arguments")) {
                throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " has the field \"" + field
                        + "\"; a call has only \"name\" and \"arguments\"");
            }
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " needs a non-empty string \"name\"");
        }
        JsonNode arguments = node.get("arguments");
        if (arguments == null) {
            arguments = STRICT.createObjectNode(); // a tool without parameters may be called without "arguments"
        } else if (!arguments.isObject()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "\"arguments\" of " + which + " ('"
                    + name.asText() + "') must be a JSON object, not a JSON " + kind(arguments));
        }
        return new RawCall(name.asText(), arguments);
    }

    static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase();
    }

    private static String firstLine(String message) {
        if (message == null) return "unreadable JSON";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
