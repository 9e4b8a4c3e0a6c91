package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.List;

/**
 * Examples that offer their tools and name the calls their first reply should make (a user's dataset in ToolCoach's
 * JSON Lines layout with {@code tools} and {@code gold_calls}) as function-calling examples, their gold calls checked
 * against the tools offered exactly as the xLAM and Glaive files' are.
 */
public final class TaskExampleCalls {

    private TaskExampleCalls() {
    }

    /** Whether an example is one: it offers tools and its first step makes calls. */
    public static boolean hasGoldCalls(TaskExample example) {
        return !example.tools().isEmpty() && !example.solution().isEmpty() && !example.solution().get(0).calls().isEmpty();
    }

    /**
     * The examples as function-calling examples; one whose tools cannot be read is malformed, one whose gold calls do not
     * fit its tools is filtered, each with its reason.
     *
     * @param source what the examples were read from, for the report
     */
    public static LoadResult<CallingExample> of(String source, List<TaskExample> examples) {
        List<CallingExample> items = new ArrayList<>();
        List<DatasetIssue> malformed = new ArrayList<>();
        List<DatasetIssue> filtered = new ArrayList<>();
        for (TaskExample example : examples) {
            String location = "example " + example.id();
            if (!hasGoldCalls(example)) {
                malformed.add(new DatasetIssue(location, "it offers no tools or names no gold calls"));
                continue;
            }
            List<FunctionDoc> functions;
            try {
                functions = example.tools().stream().map(TaskExampleCalls::doc).toList();
            } catch (IllegalArgumentException e) {
                malformed.add(new DatasetIssue(location, e.getMessage()));
                continue;
            }
            List<ToolCall> gold = example.solution().get(0).calls();
            ExampleBuilder.Result r = ExampleBuilder.build(example.id(), example.messages(), functions, gold);
            if (r.example() != null) items.add(r.example());
            else filtered.add(new DatasetIssue(location, r.filteredBecause()));
        }
        return new LoadResult<>(source, items, malformed, filtered);
    }

    private static FunctionDoc doc(ToolSpec spec) {
        ObjectNode node = JsonRecords.JSON.createObjectNode().put("name", spec.name()).put("description", spec.description());
        if (spec.parameters() != null) node.set("parameters", spec.parameters());
        return FunctionDoc.fromJson(node);
    }
}
