package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.tasks.calling.CallCategory;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.calling.PossibleCall;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Turns one gold step of a dataset (context, offered functions, exact gold calls) into a checked example. */
final class ExampleBuilder {

    private ExampleBuilder() {
    }

    /** The function descriptions of a dataset record; IllegalArgumentException when one is malformed. */
    static List<FunctionDoc> functions(JsonNode tools) {
        if (tools == null || !tools.isArray()) throw new IllegalArgumentException("tools is not a list");
        List<FunctionDoc> out = new ArrayList<>();
        for (JsonNode t : tools) out.add(FunctionDoc.fromJson(t));
        return out;
    }

    /** A gold call {@code {name, arguments}}; IllegalArgumentException (an invalid call) when it is not one. */
    static ToolCall call(JsonNode node) {
        if (node == null || !node.isObject() || !node.path("name").isTextual()) {
            throw new IllegalArgumentException("call has no string name: " + node);
        }
        JsonNode args = node.path("arguments");
        if (!args.isObject()) throw new IllegalArgumentException("arguments of " + node.get("name").asText() + " are not an object");
        return new ToolCall(node.get("name").asText(), JsonRecords.toMap(args));
    }

    /**
     * The example, or the reason its gold calls are invalid (undeclared function, missing required or
     * undeclared arguments, wrong types). Several gold calls are matched in any order.
     */
    static Result build(String id, List<Message> context, List<FunctionDoc> functions, List<ToolCall> gold) {
        List<PossibleCall> expected = new ArrayList<>();
        for (ToolCall call : gold) {
            Optional<FunctionDoc> doc = functions.stream().filter(f -> f.name().equals(call.name())).findFirst();
            if (doc.isEmpty()) return new Result(null, "calls undeclared function " + call.name());
            expected.add(PossibleCall.exactly(doc.get(), call));
        }
        CallCategory category = gold.size() > 1 ? CallCategory.PARALLEL
                : functions.size() == 1 ? CallCategory.SIMPLE : CallCategory.MULTIPLE;
        CallingExample example = new CallingExample(id, category, context, functions, expected);
        return GoldCallValidator.problem(example).map(why -> new Result(null, why)).orElseGet(() -> new Result(example, null));
    }

    /** Either an example or why the sample was filtered. */
    record Result(CallingExample example, String filteredBecause) {
    }
}
