package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.UntrustedJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Llama 3.x's JSON tool calls, as the Llama 3.1/3.2 Instruct templates teach them: a reply that is a bare JSON
 * object {@code {"name": function name, "parameters": {...}}} calls that function; any other reply is the final
 * answer. Several calls are objects separated by {@code ;} (the template itself renders one call per turn). The
 * model may put its {@code <|python_tag|>} token first. The format has no thinking. Tool results go back in the
 * template's tool role, which Llama templates render as {@code ipython}.
 *
 * <p>Strict reading: a reply whose text starts with {@code {} is a call and must be exactly call objects with
 * {@code "name"} and {@code "parameters"}; lenient reading also takes {@code "arguments"} (which it reports under
 * {@code "arguments"}, the key every reader of {@link CallReading} uses).
 */
public final class Llama3JsonCodec implements UnthinkingCodec {

    public static final Llama3JsonCodec INSTANCE = new Llama3JsonCodec();

    /** Llama 3's special token that may open a tool call. */
    static final String PYTHON_TAG = "<|python_tag|>";
    private static final String ARGUMENTS = "parameters";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Llama3JsonCodec() {
    }

    /** The reply without a leading python tag and surrounding whitespace. */
    private static String body(String text) {
        String s = text == null ? "" : text.strip();
        return s.startsWith(PYTHON_TAG) ? s.substring(PYTHON_TAG.length()).strip() : s;
    }

    @Override
    public ParsedCompletion readStrict(String completion, ArgumentValidator tools) {
        String body = body(completion);
        if (body.isEmpty()) return ParsedCompletion.error(null, null, new ParseError(ParseError.Kind.NO_ACTION, "the reply is empty"));
        if (!body.startsWith("{")) return new ParsedCompletion(null, List.of(), null, completion.strip(), null);
        List<ToolCall> calls = new ArrayList<>();
        try {
            CallTexts objects = CallTexts.split(body);
            if (objects.error() != null) throw new ActionRejected(objects.errorKind(), objects.error());
            for (String json : objects.items()) {
                CallDecoder.RawCall raw = CallDecoder.decodeOne(json, "the call", ARGUMENTS);
                tools.check(raw);
                calls.add(new ToolCall(raw.name(), CallDecoder.toJava(raw.arguments())));
            }
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, body, e.error());
        }
        return new ParsedCompletion(null, calls, body, null, null);
    }

    @Override
    public CallReading readCalls(String text) {
        String body = body(text);
        List<List<JsonNode>> blocks = new ArrayList<>();
        if (!body.startsWith("{")) return new CallReading(blocks, "no call: the reply is not a JSON object", false, false);
        CallTexts objects = CallTexts.split(body);
        for (String json : objects.items()) {
            try {
                blocks.add(List.of(asArguments(UntrustedJson.readTree(JSON, json, CallDecoder.MAX_DEPTH))));
            } catch (UntrustedJson.TooDeep e) {
                return new CallReading(blocks, "tool call JSON is nested deeper than " + CallDecoder.MAX_DEPTH + " levels", false, false);
            } catch (JsonProcessingException e) {
                return new CallReading(blocks, "tool call is not valid JSON: " + e.getOriginalMessage(), false, false);
            }
        }
        return new CallReading(blocks, objects.error(), objects.cutOff(), false);
    }

    /** A call with its arguments under "arguments" whichever key the model used. */
    private static JsonNode asArguments(JsonNode call) {
        if (!call.isObject() || call.has("arguments") || !call.has(ARGUMENTS)) return call;
        ObjectNode out = JSON.createObjectNode();
        call.fields().forEachRemaining(f -> out.set(f.getKey().equals(ARGUMENTS) ? "arguments" : f.getKey(), f.getValue()));
        return out;
    }

    /** Any text not starting a call is the answer as it grows; a reply starting with {@code {} is held back. */
    @Override
    public TextSoFar readSoFar(String text) {
        String body = body(text);
        if (body.isEmpty() || body.startsWith("{") || PYTHON_TAG.startsWith(body)) return new TextSoFar(null, null);
        return new TextSoFar(null, text.strip());
    }

    @Override
    public String writeCalls(List<ToolCall> calls) {
        return calls.stream().map(c -> call(c.name(), c.arguments())).collect(Collectors.joining("; "));
    }

    /** One object per call, {@code ;}-separated ({@code ownLine} does not apply: the reply is the JSON). */
    @Override
    public String writeCalls(List<WrittenCall> calls, boolean ownLine) {
        return calls.stream().map(c -> call(c.name(), c.arguments())).collect(Collectors.joining("; "));
    }

    private static String call(String name, Object arguments) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("name", name);
        call.put(ARGUMENTS, arguments);
        return TemplateJson.write(call);
    }

    /**
     * The top-level {@code {...}} values of a reply separated by {@code ;}, found by bracket matching outside
     * strings (their JSON is read afterwards), and what stopped the split early.
     */
    private record CallTexts(List<String> items, String error, ParseError.Kind errorKind, boolean cutOff) {

        static CallTexts split(String body) {
            List<String> items = new ArrayList<>();
            int at = 0;
            while (true) {
                int end = closing(body, at);
                if (end < 0) {
                    return new CallTexts(items, "the call at character " + at + " is never closed",
                            ParseError.Kind.MALFORMED_JSON, true);
                }
                items.add(body.substring(at, end));
                at = skipSpace(body, end);
                if (at == body.length()) return new CallTexts(items, null, null, false);
                if (body.charAt(at) == ';') {
                    at = skipSpace(body, at + 1);
                    if (at == body.length()) return new CallTexts(items, null, null, false);
                }
                if (body.charAt(at) != '{') {
                    String rest = body.substring(at);
                    return new CallTexts(items, "the reply goes on after its call: \""
                            + (rest.length() > 60 ? rest.substring(0, 60) + "…" : rest) + "\"",
                            ParseError.Kind.MALFORMED_JSON, false);
                }
            }
        }

        /** The index after the bracket closing the one at {@code open}, or -1. */
        private static int closing(String s, int open) {
            int depth = 0;
            boolean inString = false;
            for (int i = open; i < s.length(); i++) {
                char c = s.charAt(i);
                if (inString) {
                    if (c == '\\') i++;
                    else if (c == '"') inString = false;
                } else if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return i + 1;
                }
            }
            return -1;
        }

        private static int skipSpace(String s, int i) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
            return i;
        }
    }
}
