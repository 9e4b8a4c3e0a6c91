package dev.toolcoach.brain.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Message;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Task examples as JSON Lines, one {@link TaskExample} per line with snake_case fields
 * ({@code id, messages, tools, gold_answer, solution, gold}): the training-dataset format Zero-Learn
 * writes and distillation reads.
 *
 * <p>Reading is lenient per line: a line that is not a valid example is skipped and reported with
 * its number and the reason, so one bad line never loses the rest of the file.
 */
public final class ExampleJsonl {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The line layout. Jackson 2.13 ignores a naming strategy on record constructors, so the
     * snake_case name is spelled out here instead.
     */
    private record Line(String id, List<Message> messages, List<ToolSpec> tools,
                        @JsonProperty("gold_answer") String goldAnswer, List<OracleStep> solution,
                        Map<String, Object> gold) {
        static Line of(TaskExample e) {
            return new Line(e.id(), e.messages(), e.tools(), e.goldAnswer(), e.solution(), e.gold());
        }

        TaskExample example() {
            return new TaskExample(id, messages == null ? List.of() : messages, tools == null ? List.of() : tools,
                    goldAnswer == null ? "" : goldAnswer, solution == null ? List.of() : solution,
                    gold == null ? Map.of() : gold);
        }
    }

    private ExampleJsonl() {
    }

    public static String toJson(TaskExample example) {
        try {
            return MAPPER.writeValueAsString(Line.of(example));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("example " + example.id() + " cannot be written as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    public static TaskExample fromJson(String json) throws JsonProcessingException {
        Line line = MAPPER.readValue(json, Line.class);
        try {
            return line.example();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new JsonMappingException(null, e.getMessage(), e);
        }
    }

    /** Writes the examples to {@code file}, replacing it. */
    public static void write(Path file, List<TaskExample> examples) {
        try {
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (TaskExample e : examples) {
                    w.write(toJson(e));
                    w.write('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write examples to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a JSON Lines file of examples; bad lines are skipped and listed in the result. */
    public static ReadResult read(Path file) {
        List<TaskExample> examples = new ArrayList<>();
        List<SkippedLine> skipped = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank()) continue;
                try {
                    examples.add(fromJson(line));
                } catch (JsonProcessingException e) {
                    skipped.add(new SkippedLine(number, reason(e)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read examples from " + file + ": " + e.getMessage(), e);
        }
        return new ReadResult(List.copyOf(examples), List.copyOf(skipped));
    }

    /** A record constructor's own check (missing id, no messages, ...) is the clearest reason. */
    private static String reason(JsonProcessingException e) {
        Throwable cause = e.getCause();
        return cause != null && cause.getMessage() != null ? cause.getMessage() : e.getOriginalMessage();
    }

    /** Examples read from a file, and the lines that were not examples. */
    public record ReadResult(List<TaskExample> examples, List<SkippedLine> skipped) {
    }

    /** A line that could not be read, with its 1-based number and the reason. */
    public record SkippedLine(int lineNumber, String reason) {
    }
}
