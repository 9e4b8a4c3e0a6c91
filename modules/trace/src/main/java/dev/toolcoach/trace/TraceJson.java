package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.file.Path;
import java.util.Collection;

/**
 * JSON and JSON Lines I/O for traces, with ToolBrain-compatible snake_case field names.
 *
 * <p>Reading is lenient per line (see {@link JsonLines}).
 */
public final class TraceJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private TraceJson() {
    }

    /** The shared mapper configured for trace types (thread-safe). */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String toJson(Trace trace) {
        try {
            return MAPPER.writeValueAsString(trace);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("trace " + trace.rolloutId() + " cannot be written as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    public static Trace fromJson(String json) throws JsonProcessingException {
        return MAPPER.readValue(json, Trace.class);
    }

    /** Appends traces to a JSON Lines file, creating it if needed. */
    public static void append(Path file, Collection<Trace> traces) {
        JsonLines.write(file, traces, TraceJson::toJson, true, "traces");
    }

    /** Reads a JSON Lines file of traces; bad lines are skipped and listed in the result. */
    public static JsonLines.Read<Trace> read(Path file) {
        return JsonLines.read(file, "traces", TraceJson::fromJson);
    }
}
