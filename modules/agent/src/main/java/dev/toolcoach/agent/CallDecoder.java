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
 * Reads call JSON strictly: the inside of one Tool-N1 {@code <tool_call>} block (an array of calls, or one
 * call object), or one call object of a native format (a Hermes block, a Llama 3 reply), each
 * {@code {"name": ..., "arguments": {...}}} with the format's own key for the arguments.
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

    /** A Tool-N1 block: a list of calls, or one call. */
    static List<RawCall> decode(String blockContent) throws ActionRejected {
        String where = "the <tool_call> block";
        if (blockContent.isBlank()) {
            throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " is empty");
        }
        JsonNode root = readJson(blockContent, where);
        List<RawCall> calls = new ArrayList<>();
        if (root.isArray()) {
            if (root.isEmpty()) {
                throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " holds an empty list of calls");
            }
            for (int i = 0; i < root.size(); i++) calls.add(toCall(root.get(i), "call " + (i + 1), "arguments"));
        } else if (root.isObject()) {
            calls.add(toCall(root, "the call", "arguments"));
        } else {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "a <tool_call> block must hold a call object "
                    + "{\"name\": ..., \"arguments\": {...}} or a list of them, not a JSON " + kind(root));
        }
        return calls;
    }

    /**
     * Exactly one call object, as native formats write each call.
     *
     * @param where        what holds the JSON, for messages ("the <tool_call> block", "the reply")
     * @param argumentsKey the format's name for the arguments ("arguments", Llama 3's "parameters")
     */
    static RawCall decodeOne(String json, String where, String argumentsKey) throws ActionRejected {
        if (json.isBlank()) throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " is empty");
        JsonNode root = readJson(json, where);
        if (!root.isObject()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, where + " must hold one call object {\"name\": ..., \""
                    + argumentsKey + "\": {...}}, not a JSON " + kind(root));
        }
        return toCall(root, "the call", argumentsKey);
    }

    /**
     * A JSON list of one or more call objects, as Phi-4-mini writes its calls after {@code functools}.
     *
     * @param where what holds the JSON, for messages
     */
    static List<RawCall> decodeList(String json, String where) throws ActionRejected {
        if (json.isBlank()) throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " is empty");
        JsonNode root = readJson(json, where);
        if (!root.isArray()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, where + " must be a list of call objects "
                    + "[{\"name\": ..., \"arguments\": {...}}], not a JSON " + kind(root));
        }
        if (root.isEmpty()) throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " is an empty list of calls");
        List<RawCall> calls = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) calls.add(toCall(root.get(i), "call " + (i + 1), "arguments"));
        return calls;
    }

    /** Arguments as plain Java values (String, Integer, Long, Double, Boolean, List, Map, null). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> toJava(JsonNode arguments) {
        return STRICT.convertValue(arguments, Map.class);
    }

    private static JsonNode readJson(String text, String where) throws ActionRejected {
        JsonNode root;
        try {
            root = UntrustedJson.readTree(STRICT, text, MAX_DEPTH);
        } catch (UntrustedJson.TooDeep e) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "the JSON of " + where + " is nested deeper than "
                    + MAX_DEPTH + " levels");
        } catch (JsonProcessingException e) {
            String at = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, where + " is not valid JSON: "
                    + firstLine(e.getOriginalMessage()) + at);
        }
        if (root == null || root.isMissingNode()) {
            throw new ActionRejected(ParseError.Kind.EMPTY_CALL, where + " holds no JSON value");
        }
        return root;
    }

    private static RawCall toCall(JsonNode node, String which, String argumentsKey) throws ActionRejected {
        if (!node.isObject()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " must be an object "
                    + "{\"name\": ..., \"" + argumentsKey + "\": {...}}, not a JSON " + kind(node));
        }
        Iterator<String> fields = node.fieldNames();
        while (fields.hasNext()) {
            String field = fields.next();
            if (!field.equals("name") && !field.equals(argumentsKey)) {
                throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " has the field \"" + field
                        + "\"; a call has only \"name\" and \"" + argumentsKey + "\"");
            }
        }
        JsonNode name = node.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, which + " needs a non-empty string \"name\"");
        }
        JsonNode arguments = node.get(argumentsKey);
        if (arguments == null) {
            arguments = STRICT.createObjectNode(); // a tool without parameters may be called without arguments
        } else if (!arguments.isObject()) {
            throw new ActionRejected(ParseError.Kind.MALFORMED_JSON, "\"" + argumentsKey + "\" of " + which + " ('"
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
