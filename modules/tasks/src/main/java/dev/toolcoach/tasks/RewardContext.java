package dev.toolcoach.tasks;

import dev.toolcoach.trace.ToolCall;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The dataset example a group of rollouts was made from, as rewards see it: the well-known fields
 * typed, anything else in {@code fields} with typed accessors that say clearly what is missing. Made from a
 * {@link TaskExample} ({@link #of(TaskExample)}), or from parts for a reward scored outside a task.
 *
 * @param queryId    the example's id
 * @param query      the user query
 * @param goldAnswer the expected final answer, or null when the example has none
 * @param goldCalls  the expected tool calls, empty when the example has none
 * @param fields     any other example fields (JSON-shaped values)
 */
public record RewardContext(String queryId, String query, String goldAnswer, List<ToolCall> goldCalls,
                            Map<String, Object> fields) {
    public RewardContext {
        Objects.requireNonNull(queryId, "queryId");
        query = query == null ? "" : query;
        goldCalls = goldCalls == null ? List.of() : List.copyOf(goldCalls);
        fields = fields == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A dataset example as rewards see it: its query, gold answer, the oracle's calls and the gold facts. */
    public static RewardContext of(TaskExample e) {
        return new RewardContext(e.id(), e.query(), e.goldAnswer(),
                e.solution().stream().flatMap(step -> step.calls().stream()).toList(), e.gold());
    }

    public static RewardContext of(String queryId, String query, String goldAnswer) {
        return new RewardContext(queryId, query, goldAnswer, List.of(), Map.of());
    }

    public RewardContext withField(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(fields);
        more.put(name, value);
        return new RewardContext(queryId, query, goldAnswer, goldCalls, more);
    }

    /** The gold answer; a reward that needs one fails clearly on an example without it. */
    public String requireGoldAnswer(String rewardName) {
        if (goldAnswer == null) {
            throw new IllegalArgumentException("example " + queryId + " has no gold answer, which reward '"
                    + rewardName + "' needs");
        }
        return goldAnswer;
    }

    /** A field holding a typed object (e.g. a reward's own example record), empty when absent. */
    public <T> Optional<T> value(String name, Class<T> type) {
        Object v = fields.get(name);
        if (v == null) return Optional.empty();
        if (type.isInstance(v)) return Optional.of(type.cast(v));
        throw wrongType(name, v, "a " + type.getSimpleName());
    }

    public Optional<String> string(String name) {
        Object v = fields.get(name);
        if (v == null) return Optional.empty();
        if (v instanceof String s) return Optional.of(s);
        throw wrongType(name, v, "a string");
    }

    public OptionalDouble number(String name) {
        Object v = fields.get(name);
        if (v == null) return OptionalDouble.empty();
        if (v instanceof Number n) return OptionalDouble.of(n.doubleValue());
        throw wrongType(name, v, "a number");
    }

    /** A list-of-strings field, empty when absent. */
    public List<String> strings(String name) {
        Object v = fields.get(name);
        if (v == null) return List.of();
        if (v instanceof List<?> list && list.stream().allMatch(e -> e instanceof String)) {
            return list.stream().map(String.class::cast).toList();
        }
        throw wrongType(name, v, "a list of strings");
    }

    private IllegalArgumentException wrongType(String name, Object v, String wanted) {
        return new IllegalArgumentException("field '" + name + "' of example " + queryId + " is "
                + v.getClass().getSimpleName() + " (" + v + "), not " + wanted);
    }
}
