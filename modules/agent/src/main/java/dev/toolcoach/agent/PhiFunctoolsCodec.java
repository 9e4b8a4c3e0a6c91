package dev.toolcoach.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.UntrustedJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phi-4-mini's tool calls, as its model card and vLLM's phi4mini parser read them: a reply that is the word
 * {@code functools} followed by a JSON list {@code [{"name": ..., "arguments": {...}}, ...]} calls those functions;
 * any other reply is the final answer. The format has no thinking. Tool results go back in the template's tool
 * role ({@code <|tool|>...<|end|>}).
 *
 * <p>Strict reading: a reply starting with {@code functools[} must be exactly that list of call objects with
 * {@code "name"} and {@code "arguments"}; a {@code functools[} after other text is an error (the model is told its
 * call must be the whole reply), while the bare word, as in Python's module, is just text.
 */
public final class PhiFunctoolsCodec implements UnthinkingCodec {

    public static final PhiFunctoolsCodec INSTANCE = new PhiFunctoolsCodec();

    static final String PREFIX = "functools";
    private static final String WHERE = "the functools list";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PhiFunctoolsCodec() {
    }

    /** The index of the call list's {@code [} when {@code body} starts with {@code functools[}, else -1. */
    private static int listStart(String body) {
        if (!body.startsWith(PREFIX)) return -1;
        int at = PREFIX.length();
        while (at < body.length() && Character.isWhitespace(body.charAt(at))) at++;
        return at < body.length() && body.charAt(at) == '[' ? at : -1;
    }

    @Override
    public ParsedCompletion readStrict(String completion, ArgumentValidator tools) {
        String body = completion == null ? "" : completion.strip();
        if (body.isEmpty()) return ParsedCompletion.error(null, null, new ParseError(ParseError.Kind.NO_ACTION, "the reply is empty"));
        int list = listStart(body);
        if (list < 0) {
            if (!body.contains(PREFIX + "[")) return new ParsedCompletion(null, List.of(), null, body, null);
            return ParsedCompletion.error(null, body, new ParseError(ParseError.Kind.MALFORMED_JSON,
                    "the reply has text before its functools[...] call; a call must be the whole reply"));
        }
        List<ToolCall> calls = new ArrayList<>();
        try {
            for (CallDecoder.RawCall raw : CallDecoder.decodeList(body.substring(list), WHERE)) {
                tools.check(raw);
                calls.add(new ToolCall(raw.name(), CallDecoder.toJava(raw.arguments())));
            }
        } catch (ActionRejected e) {
            return ParsedCompletion.error(null, body, e.error());
        }
        return new ParsedCompletion(null, calls, body, null, null);
    }

    /** The call objects of the first {@code functools[...]} list anywhere in the text, as written. */
    @Override
    public CallReading readCalls(String text) {
        String s = text == null ? "" : text;
        int at = s.indexOf(PREFIX + "[");
        if (at < 0) return new CallReading(List.of(), "no call: the reply has no functools[...] list", false, false);
        String json = s.substring(at + PREFIX.length());
        try {
            JsonNode list = UntrustedJson.readTree(JSON, json, CallDecoder.MAX_DEPTH);
            List<JsonNode> calls = new ArrayList<>();
            list.forEach(calls::add);
            return new CallReading(List.of(calls), null, false, false);
        } catch (UntrustedJson.TooDeep e) {
            return new CallReading(List.of(), "tool call JSON is nested deeper than " + CallDecoder.MAX_DEPTH + " levels", false, false);
        } catch (JsonEOFException e) {
            return new CallReading(List.of(), "the functools list is never closed", true, false);
        } catch (JsonProcessingException e) {
            return new CallReading(List.of(), "the functools list is not valid JSON: " + UntrustedJson.reason(e), false, false);
        }
    }

    /** Any text not starting a call is the answer as it grows; a reply that may become {@code functools[} is held back. */
    @Override
    public TextSoFar readSoFar(String text) {
        String body = text == null ? "" : text.strip();
        if (body.isEmpty() || body.startsWith(PREFIX) || PREFIX.startsWith(body)) return new TextSoFar(null, null);
        return new TextSoFar(null, body);
    }

    /**
     * The whole reply: Phi-4-mini's template renders an assistant turn's content only (never {@code tool_calls}),
     * so the content must keep the {@code functools[...]} text for the model to see its own calls again.
     */
    @Override
    public String contentBesideCalls(String text) {
        return text == null ? "" : text.strip();
    }

    @Override
    public String writeCalls(List<ToolCall> calls) {
        return PREFIX + TemplateJson.write(calls.stream().map(c -> call(c.name(), c.arguments())).toList());
    }

    /** One list of every call ({@code ownLine} does not apply: the reply is the list). */
    @Override
    public String writeCalls(List<WrittenCall> calls, boolean ownLine) {
        return PREFIX + TemplateJson.write(calls.stream().map(c -> call(c.name(), c.arguments())).toList());
    }

    private static Map<String, Object> call(String name, Object arguments) {
        Map<String, Object> call = new LinkedHashMap<>();
        call.put("name", name);
        call.put("arguments", arguments);
        return call;
    }
}
