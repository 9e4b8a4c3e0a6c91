package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ToolCallCodec;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tool calls of a model output as the checker reads them, in the format the model writes (its codec's
 * lenient reading: for the tagged formats a block holding a list or a single call object, several blocks; for
 * Llama 3 JSON, {@code "parameters"} or {@code "arguments"}), then each call needs a string name and object
 * arguments.
 *
 * <p>Not the agent's strict reading: that one validates calls against JSON Schema tool specs, which would
 * turn a wrong name or argument into a parse error before the checker can classify it, and does not know
 * BFCL's Python-style types. It never throws on model text: anything it cannot read comes back as a format error.
 */
public final class ToolCallText {

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

    /** The calls of {@code output}, read with the codec of the format the model writes. */
    public static Parsed parse(String output, ToolCallCodec codec) {
        ToolCallCodec.CallReading reading = codec.readCalls(output);
        List<ToolCall> calls = new ArrayList<>();
        for (List<JsonNode> block : reading.blocks()) {
            for (JsonNode item : block) {
                if (!item.isObject() || !item.path("name").isTextual()) {
                    return failure("a tool call needs a string \"name\": " + item, reading);
                }
                JsonNode args = item.path("arguments");
                if (!args.isMissingNode() && !args.isObject()) {
                    return failure("arguments of " + item.get("name").asText() + " are not an object", reading);
                }
                Map<String, Object> arguments = args.isMissingNode() ? Map.of() : JSON.convertValue(args, MAP_TYPE);
                calls.add(new ToolCall(item.get("name").asText(), arguments));
            }
        }
        if (reading.error() != null) return failure(reading.error(), reading);
        if (calls.isEmpty()) return failure("the output holds no calls", reading);
        return new Parsed(calls, null, reading.thinkingFirst());
    }

    private static Parsed failure(String why, ToolCallCodec.CallReading reading) {
        return new Parsed(List.of(), why, reading.thinkingFirst());
    }
}
