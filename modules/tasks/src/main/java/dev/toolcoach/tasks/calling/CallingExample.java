package dev.toolcoach.tasks.calling;

import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A single-step function-calling example: the conversation so far, the functions offered, and the
 * call(s) the next assistant turn should make.
 *
 * @param id        unique id within its dataset (e.g. {@code simple_12}, {@code glaive_7_step2})
 * @param category  how the expected calls are matched
 * @param messages  the conversation up to the step to predict, last message from the user or a tool
 * @param functions the functions offered to the model
 * @param expected  the expected calls in possible-answer form
 */
public record CallingExample(String id, CallCategory category, List<Message> messages,
                             List<FunctionDoc> functions, List<PossibleCall> expected) {

    public CallingExample {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(category, "category");
        messages = List.copyOf(messages);
        functions = List.copyOf(functions);
        expected = List.copyOf(expected);
    }

    public Optional<FunctionDoc> function(String name) {
        return functions.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    /**
     * The calls a perfect model makes here (each expected call's first allowed values, written in the category's
     * language): the oracle's answer.
     */
    public List<ToolCall> oracleCalls() {
        return expected.stream().map(p -> {
            FunctionDoc doc = function(p.name()).orElseThrow(() -> new IllegalStateException(
                    "example " + id + " expects " + p.name() + ", which it does not offer"));
            return category.language().inSource(p.firstChoice(doc), doc);
        }).toList();
    }

    /** The text of the last user message (the query of a single-turn example). */
    public String query() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) return messages.get(i).content();
        }
        return "";
    }
}
