package dev.toolcoach.tasks.calling;

import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One expected call in BFCL's possible-answer form: for each parameter, the values accepted for it.
 * The empty string {@code ""} among the allowed values means the parameter may be omitted. Where
 * the schema declares a dict (or a list of dicts), each allowed dict maps its keys to lists of
 * allowed values in turn.
 */
public record PossibleCall(String name, Map<String, List<Object>> allowed) {

    /** The marker BFCL uses for "this parameter may be left out". */
    public static final String OMITTABLE = "";

    public PossibleCall {
        Objects.requireNonNull(name, "name");
        Map<String, List<Object>> copy = new LinkedHashMap<>();
        allowed.forEach((k, v) -> copy.put(k, Collections.unmodifiableList(new ArrayList<>(v))));
        allowed = Collections.unmodifiableMap(copy);
    }

    public static boolean mayOmit(List<Object> allowedValues) {
        return allowedValues.contains(OMITTABLE);
    }

    /** The possible-answer form of one exact gold call (datasets that give a single answer). */
    public static PossibleCall exactly(FunctionDoc doc, ToolCall call) {
        Map<String, List<Object>> allowed = new LinkedHashMap<>();
        call.arguments().forEach((param, value) -> allowed.put(param, Collections.singletonList(
                declaresDicts(doc, param) ? toPossible(value) : value)));
        return new PossibleCall(call.name(), allowed);
    }

    /**
     * The call a perfect model would make: the first allowed value of each parameter; an optional
     * parameter whose first choice is {@code ""} is left out, a required one takes its first real value.
     */
    public ToolCall firstChoice(FunctionDoc doc) {
        Map<String, Object> args = new LinkedHashMap<>();
        allowed.forEach((param, values) -> {
            Object choice = values.isEmpty() ? OMITTABLE : values.get(0);
            if (OMITTABLE.equals(choice) && doc.required().contains(param)) {
                choice = values.stream().filter(v -> !OMITTABLE.equals(v)).findFirst().orElse(OMITTABLE);
            }
            if (!OMITTABLE.equals(choice)) args.put(param, declaresDicts(doc, param) ? fromPossible(choice) : choice);
        });
        return new ToolCall(name, args);
    }

    private static boolean declaresDicts(FunctionDoc doc, String param) {
        ParamType type = doc.typeOf(param);
        return type == ParamType.DICT || (type.isSequence() && doc.itemTypeOf(param) == ParamType.DICT);
    }

    /** A dict → each key's value as a one-element list; a list of dicts → each dict so. */
    private static Object toPossible(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), Collections.singletonList(v)));
            return out;
        }
        if (value instanceof List<?> l) return l.stream().map(PossibleCall::toPossible).toList();
        return value;
    }

    /** The inverse of {@link #toPossible}: each key takes its first allowed value, {@code ""} meaning left out. */
    private static Object fromPossible(Object possible) {
        if (possible instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                Object first = v instanceof List<?> l ? (l.isEmpty() ? OMITTABLE : l.get(0)) : v;
                if (!OMITTABLE.equals(first)) out.put(String.valueOf(k), first);
            });
            return out;
        }
        if (possible instanceof List<?> l) return l.stream().map(PossibleCall::fromPossible).toList();
        return possible;
    }
}
