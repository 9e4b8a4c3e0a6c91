package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads Glaive function-calling conversations in ShareGPT layout: one JSON array of
 * {@code {conversations: [{from, value}], tools: "<JSON string>"}} with {@code from} one of
 * {@code human}, {@code gpt}, {@code function_call}, {@code observation}.
 *
 * <p>As Tool-N1 does, a multi-turn conversation is split into steps: every {@code function_call}
 * turn becomes one example whose context is the conversation before it (earlier calls as assistant
 * tool-call messages, observations as tool messages). Conversations without any call give no example.
 * Example ids are {@code <prefix>_<index>_step<k>}.
 */
public final class GlaiveLoader {

    public LoadResult<CallingExample> load(Path file, String idPrefix) {
        List<CallingExample> items = new ArrayList<>();
        List<DatasetIssue> malformed = new ArrayList<>();
        List<DatasetIssue> filtered = new ArrayList<>();
        JsonRecords.forEachArrayItem(file, (location, index, node) -> {
            List<FunctionDoc> functions = ExampleBuilder.functions(parseToolsString(node.get("tools")));
            JsonNode turns = node.get("conversations");
            if (turns == null || !turns.isArray()) throw new IllegalArgumentException("conversations is not a list");
            // an item's examples are kept only once the whole conversation has been read
            List<CallingExample> examples = new ArrayList<>();
            List<DatasetIssue> rejected = new ArrayList<>();
            List<Message> context = new ArrayList<>();
            int step = 0;
            for (JsonNode turn : turns) {
                String from = JsonRecords.text(turn, "from");
                String value = JsonRecords.text(turn, "value");
                switch (from) {
                    case "human" -> context.add(Message.user(value));
                    case "gpt" -> context.add(Message.assistant(value));
                    case "observation" -> context.add(Message.tool(value));
                    case "function_call" -> {
                        String where = location + " step " + step;
                        try {
                            ToolCall call = ExampleBuilder.call(JsonRecords.JSON.readTree(value));
                            ExampleBuilder.Result r = ExampleBuilder.build(idPrefix + "_" + index + "_step" + step,
                                    context, functions, List.of(call));
                            if (r.example() != null) examples.add(r.example());
                            else rejected.add(new DatasetIssue(where, r.filteredBecause()));
                            context.add(Message.assistant(ActionFormat.TOOL_N1.codec().writeCalls(List.of(call))));
                        } catch (JsonProcessingException | IllegalArgumentException e) {
                            rejected.add(new DatasetIssue(where, "function call is not a valid call: " + e.getMessage()));
                            context.add(Message.assistant(value));
                        }
                        step++;
                    }
                    default -> throw new IllegalArgumentException("unknown speaker '" + from + "'");
                }
            }
            items.addAll(examples);
            filtered.addAll(rejected);
        }, malformed);
        return new LoadResult<>(file.getFileName().toString(), items, malformed, filtered);
    }

    /** Glaive keeps the tool list as a JSON string; an absent or empty one means no tools. */
    private static JsonNode parseToolsString(JsonNode tools) {
        if (tools == null || tools.isNull()) return JsonRecords.JSON.createArrayNode();
        if (tools.isArray()) return tools;
        try {
            return tools.asText().isBlank() ? JsonRecords.JSON.createArrayNode() : JsonRecords.JSON.readTree(tools.asText());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tools is not a JSON list: " + e.getOriginalMessage());
        }
    }
}
