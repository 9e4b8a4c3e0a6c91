package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * JSON and JSON Lines I/O for traces, with ToolBrain-compatible snake_case field names.
 *
 * <p>Reading is lenient per line: a line that is not a valid trace is skipped and reported with its
 * line number, so one bad line never loses the rest of the file.
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
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                for (Trace t : traces) {
                    w.write(toJson(t));
                    w.write('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write traces to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a JSON Lines file of traces; bad lines are skipped and listed in the result. */
    public static ReadResult read(Path file) {
        List<Trace> traces = new ArrayList<>();
        List<SkippedLine> skipped = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank()) continue;
                try {
                    traces.add(fromJson(line));
                } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
                    String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
                    skipped.add(new SkippedLine(number, why));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read traces from " + file + ": " + e.getMessage(), e);
        }
        return new ReadResult(List.copyOf(traces), List.copyOf(skipped));
    }

    /** Traces read from a file, and the lines that were not traces. */
    public record ReadResult(List<Trace> traces, List<SkippedLine> skipped) {
    }

    /** A line that could not be read, with its 1-based number and the reason. */
    public record SkippedLine(int lineNumber, String reason) {
    }
}
