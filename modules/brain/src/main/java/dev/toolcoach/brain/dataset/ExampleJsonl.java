package dev.toolcoach.brain.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.OracleStep;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.UntrustedJson;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Task examples as JSON Lines, one {@link TaskExample} per line with snake_case fields
 * ({@code id, messages, tools, gold_answer, solution, gold}): the training-dataset format Zero-Learn
 * writes, distillation reads and a user's {@code --dataset} file is in.
 *
 * <p>A user's line may spell the conversation and the gold more simply: {@code query} (with an optional
 * {@code system} prompt) instead of {@code messages}, {@code gold_calls} (the calls {@code {name, arguments}} the
 * first reply should make) instead of {@code solution}, and {@code metadata} (fields a reward may read) instead of
 * {@code gold}. A line names one spelling of each, never both.
 *
 * <p>Reading is lenient per line: a line that is not a valid example is skipped and reported with
 * its number and the reason (never its content), so one bad line never loses the rest of the file.
 */
public final class ExampleJsonl {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The line layout. Jackson 2.13 ignores a naming strategy on record constructors, so the
     * snake_case name is spelled out here instead.
     */
    private record Line(String id, List<Message> messages, String query, String system, List<ToolSpec> tools,
                        @JsonProperty("gold_answer") String goldAnswer, List<OracleStep> solution,
                        @JsonProperty("gold_calls") List<ToolCall> goldCalls, Map<String, Object> gold,
                        Map<String, Object> metadata) {
        static Line of(TaskExample e) {
            return new Line(e.id(), e.messages(), null, null, e.tools(), e.goldAnswer(), e.solution(), null, e.gold(), null);
        }

        TaskExample example() {
            // checked here so the reason names the field, not the example's values
            if (id == null || id.isBlank()) throw new IllegalArgumentException("no \"id\"");
            if (messages != null && (query != null || system != null)) {
                throw new IllegalArgumentException("both \"messages\" and \"query\"/\"system\": name one");
            }
            List<Message> conversation = messages != null ? messages : query(query, system);
            if (conversation.isEmpty()) throw new IllegalArgumentException("no \"messages\" (or \"query\")");
            if (solution != null && goldCalls != null) throw new IllegalArgumentException("both \"solution\" and \"gold_calls\": name one");
            if (gold != null && metadata != null) throw new IllegalArgumentException("both \"gold\" and \"metadata\": name one");
            List<OracleStep> steps = solution != null ? solution
                    : goldCalls == null || goldCalls.isEmpty() ? List.of() : List.of(new OracleStep("", goldCalls, null));
            Map<String, Object> facts = gold != null ? gold : metadata;
            return new TaskExample(id, conversation, tools == null ? List.of() : tools,
                    goldAnswer == null ? "" : goldAnswer, steps, facts == null ? Map.of() : facts);
        }

        private static List<Message> query(String query, String system) {
            if (query == null || query.isBlank()) return List.of();
            return system == null || system.isBlank() ? List.of(Message.user(query)) : List.of(Message.system(system), Message.user(query));
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

    /**
     * One line as an example.
     *
     * @throws JsonProcessingException when it is not JSON of the layout (nested deeper than
     *                                 {@link UntrustedJson#MAX_DEPTH} included)
     * @throws IllegalArgumentException naming the required field that is missing
     */
    public static TaskExample fromJson(String json) throws JsonProcessingException {
        Line line = UntrustedJson.readValue(MAPPER, json, Line.class, UntrustedJson.MAX_DEPTH);
        if (line == null) throw new IllegalArgumentException("not a JSON object");
        return line.example();
    }

    /** Writes the examples to {@code file}, replacing it. */
    public static void write(Path file, List<TaskExample> examples) {
        JsonLines.write(file, examples, ExampleJsonl::toJson, false, "examples");
    }

    /** Reads a JSON Lines file of examples; bad lines are skipped and listed in the result. */
    public static JsonLines.Read<TaskExample> read(Path file) {
        return JsonLines.read(file, "examples", ExampleJsonl::fromJson);
    }
}
