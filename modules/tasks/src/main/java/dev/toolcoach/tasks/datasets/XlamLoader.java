package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads xLAM-format function-calling data: one JSON array of {@code {query, tools, answers}}, where
 * {@code answers} are the gold calls {@code {name, arguments}} (matched in any order). Each item is
 * one single-step example with id {@code <prefix>_<index>}.
 */
public final class XlamLoader {

    public LoadResult<CallingExample> load(Path file, String idPrefix) {
        List<CallingExample> items = new ArrayList<>();
        List<DatasetIssue> malformed = new ArrayList<>();
        List<DatasetIssue> filtered = new ArrayList<>();
        JsonRecords.forEachArrayItem(file, (location, index, node) -> {
            String id = idPrefix + "_" + index;
            String query = JsonRecords.text(node, "query");
            List<FunctionDoc> functions = ExampleBuilder.functions(node.get("tools"));
            JsonNode answers = node.get("answers");
            if (answers == null || !answers.isArray()) throw new IllegalArgumentException("answers is not a list");
            List<ToolCall> gold = new ArrayList<>();
            try {
                for (JsonNode a : answers) gold.add(ExampleBuilder.call(a));
            } catch (IllegalArgumentException e) {
                filtered.add(new DatasetIssue(location, e.getMessage()));
                return;
            }
            ExampleBuilder.Result r = ExampleBuilder.build(id, List.of(Message.user(query)), functions, gold);
            if (r.example() != null) items.add(r.example());
            else filtered.add(new DatasetIssue(location, r.filteredBecause()));
        }, malformed);
        return new LoadResult<>(file.getFileName().toString(), items, malformed, filtered);
    }
}
