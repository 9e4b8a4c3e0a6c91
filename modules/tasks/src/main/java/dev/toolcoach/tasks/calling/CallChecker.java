package dev.toolcoach.tasks.calling;

import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.toolcoach.tasks.calling.BfclValues.pyIn;
import static dev.toolcoach.tasks.calling.BfclValues.standardize;
import static dev.toolcoach.tasks.calling.BfclValues.standardizeElements;
import static dev.toolcoach.tasks.calling.BfclValues.standardizeIfString;

/**
 * BFCL's AST checker in Java: decides whether a model's calls match an example's possible answers.
 *
 * <p>It follows gorilla's {@code ast_checker.py} rule for rule: the function name must match; required
 * parameters must be present and no undeclared or unexpected ones; a float parameter takes an int; a value
 * is type-checked against the schema ("any" is a string), one level deep for list items, and a value of the
 * possible answer's type is taken instead (BFCL's "variable" rule, which is also how {@code null} passes
 * where null is a possible answer) and then compared as it is; strings are compared after BFCL's
 * standardisation, lists element-wise, dicts key by key and lists of dicts in order; an optional parameter
 * may be left out only when {@code ""} is among its possible answers. Simple examples take exactly one call,
 * multiple ones as many calls as possible answers with the first checked; parallel calls are matched in any
 * order by BFCL's greedy pass (each possible answer, in order, takes the first model call left that fits). In the
 * Java and JavaScript categories every argument value must be a string of source text, which is read as BFCL's
 * type converters read it ({@link SourceLanguage}) and then checked by the same rules.
 *
 * <p>{@link #schemaStrict()} drops the variable rule and checks every item type: the gate that keeps a
 * training dataset's gold calls honest against their own schemas.
 */
public final class CallChecker {

    private final boolean variables;

    /** BFCL's rules. */
    public CallChecker() {
        this(true);
    }

    private CallChecker(boolean variables) {
        this.variables = variables;
    }

    /** A checker for gold calls: a value must be of its declared type; the possible answer's type is no excuse. */
    public static CallChecker schemaStrict() {
        return new CallChecker(false);
    }

    public CheckResult check(CallingExample example, List<ToolCall> calls) {
        List<PossibleCall> expected = example.expected();
        int wanted = example.category().singleCall() ? 1 : expected.size();
        if (calls.size() != wanted) {
            return CheckResult.fail(CheckError.WRONG_COUNT, "expected " + wanted + " call(s), got " + calls.size());
        }
        return example.category() == CallCategory.PARALLEL
                ? matchInAnyOrder(example, expected, calls)
                : checkCall(example, expected.get(0), calls.get(0));
    }

    /** Checks one model call against one expected call. */
    public CheckResult checkCall(CallingExample example, PossibleCall expected, ToolCall call) {
        FunctionDoc doc = example.function(expected.name()).orElseThrow(() -> new IllegalArgumentException(
                "example " + example.id() + " expects " + expected.name() + ", which it does not offer"));
        if (!call.name().equals(doc.name())) {
            return CheckResult.fail(CheckError.WRONG_FUNC_NAME, "expected function " + doc.name() + ", got " + call.name());
        }
        for (String param : doc.required()) {
            if (!call.arguments().containsKey(param)) {
                return CheckResult.fail(CheckError.MISSING_REQUIRED, "missing required parameter '" + param + "'");
            }
        }
        SourceLanguage language = example.category().language();
        for (Map.Entry<String, Object> arg : call.arguments().entrySet()) {
            String param = arg.getKey();
            if (!doc.properties().containsKey(param) || !expected.allowed().containsKey(param)) {
                return CheckResult.fail(CheckError.UNEXPECTED_PARAM, "unexpected parameter '" + param + "'");
            }
            Object value = arg.getValue();
            if (language != SourceLanguage.PYTHON) {
                if (!(value instanceof String source)) {
                    return CheckResult.fail(language.notSourceText(), "parameter '" + param + "' should be a string of "
                            + language.displayName() + " source text, got " + kindName(value) + " " + value);
                }
                value = language.read(source, doc.declaredType(param), doc.declaredItemType(param));
            }
            CheckResult r = checkValue(param, value, language, doc.typeOf(param), doc.itemTypeOf(param),
                    expected.allowed().get(param));
            if (!r.isCorrect()) return r;
        }
        for (Map.Entry<String, List<Object>> allowed : expected.allowed().entrySet()) {
            if (!call.arguments().containsKey(allowed.getKey()) && !PossibleCall.mayOmit(allowed.getValue())) {
                return CheckResult.fail(CheckError.MISSING_OPTIONAL, "parameter '" + allowed.getKey()
                        + "' left out but the answer needs one of " + allowed.getValue());
            }
        }
        return CheckResult.correct();
    }

    private CheckResult checkValue(String param, Object value, SourceLanguage language, ParamType type, ParamType itemType,
                                   List<Object> allowed) {
        // Python's int is taken for a float; the converters of the other languages make floats themselves
        if (language == SourceLanguage.PYTHON && type == ParamType.FLOAT && JsonKind.of(value) == JsonKind.INTEGER) {
            value = ((Number) value).doubleValue();
        }
        JsonKind kind = JsonKind.of(value);
        JsonKind answerKind = answerKind(allowed);
        // BFCL: possible answers of another type than the schema's mean the answer is a "variable"
        boolean variable = variables && answerKind != null && !type.isKind(answerKind, variables);
        if (type.isKind(kind, variables)) {
            if (type.isSequence() && itemType != null && !itemsFit((List<?>) value, itemType, allowed)) {
                return CheckResult.fail(CheckError.NESTED_TYPE_ERROR, "parameter '" + param + "' should be a "
                        + type.schemaName() + " of " + itemType.schemaName() + ", got " + value);
            }
        } else if (variables && answerKind == kind) {
            variable = true;
        } else {
            return CheckResult.fail(CheckError.TYPE_ERROR, "parameter '" + param + "' should be " + type.schemaName()
                    + ", got " + kindName(value) + " " + value);
        }
        // a variable is compared as it is; dicts are compared key by key only where the schema declares them
        if (variable) return membership(param, value, allowed);
        if (type == ParamType.DICT) return checkDict(param, (Map<?, ?>) value, allowed);
        if (type.isSequence() && itemType == ParamType.DICT) return checkListOfDicts(param, (List<?>) value, allowed);
        return switch (kind) {
            case STRING -> checkString(param, (String) value, allowed);
            case ARRAY -> checkList(param, (List<?>) value, allowed);
            default -> membership(param, value, allowed);
        };
    }

    private static String kindName(Object value) {
        return JsonKind.of(value).name().toLowerCase(Locale.ROOT);
    }

    /** The kind of the first possible answer that is not the omission marker, or null when there is none. */
    private static JsonKind answerKind(List<?> allowed) {
        for (Object a : allowed) if (!PossibleCall.OMITTABLE.equals(a)) return JsonKind.of(a);
        return null;
    }

    /**
     * BFCL's one-level item check: the items fit when, for some possible answer, each is of the item type or of
     * that answer's item type (a possible answer that is not a list, such as {@code ""}, lets any items pass).
     * The strict checker wants every item of the item type.
     */
    private boolean itemsFit(List<?> items, ParamType itemType, List<Object> allowed) {
        if (!variables) return items.stream().allMatch(i -> itemType.accepts(JsonKind.of(i)));
        for (Object answer : allowed) {
            if (!(answer instanceof List<?> answerItems)) return true;
            JsonKind answerItemKind = answerKind(answerItems);
            boolean fit = true;
            for (Object item : items) {
                JsonKind k = JsonKind.of(item);
                if (!itemType.isKind(k, true) && k != answerItemKind) {
                    fit = false;
                    break;
                }
            }
            if (fit) return true;
        }
        return false;
    }

    private static CheckResult membership(String param, Object value, List<Object> allowed) {
        return pyIn(value, allowed) ? CheckResult.correct()
                : CheckResult.fail(CheckError.VALUE, "parameter '" + param + "' = " + value + ", expected one of " + allowed);
    }

    private static CheckResult checkString(String param, String value, List<Object> allowed) {
        String got = standardize(value);
        for (Object a : allowed) {
            if (a instanceof String s && standardize(s).equals(got)) return CheckResult.correct();
        }
        return CheckResult.fail(CheckError.STRING_VALUE, "parameter '" + param + "' = \"" + value
                + "\", expected one of " + allowed + " (case, spaces and ,./-_*^ ignored)");
    }

    /** BFCL iterates each possible answer as a sequence: a string answer stands for the list of its characters. */
    private static CheckResult checkList(String param, List<?> value, List<Object> allowed) {
        List<Object> got = standardizeElements(value);
        for (Object a : allowed) {
            List<?> answer = a instanceof List<?> l ? l : a instanceof String s ? s.codePoints().mapToObj(Character::toString).toList() : null;
            if (answer != null && BfclValues.pyEquals(got, standardizeElements(answer))) return CheckResult.correct();
        }
        return CheckResult.fail(CheckError.LIST_VALUE, "parameter '" + param + "' = " + value + ", expected one of " + allowed);
    }

    /** A dict matches when it equals one allowed dict key by key (each key with its own allowed values). */
    private static CheckResult checkDict(String param, Map<?, ?> value, List<Object> allowed) {
        CheckResult last = CheckResult.fail(CheckError.DICT_VALUE, "parameter '" + param + "' = " + value + " matches no allowed dict");
        for (Object a : allowed) {
            if (!(a instanceof Map<?, ?> answer)) continue;
            last = dictAgainst(param, value, answer);
            if (last.isCorrect()) return last;
        }
        return last;
    }

    private static CheckResult dictAgainst(String param, Map<?, ?> value, Map<?, ?> answer) {
        for (Map.Entry<?, ?> e : value.entrySet()) {
            if (!answer.containsKey(e.getKey())) {
                return CheckResult.fail(CheckError.DICT_KEY, "parameter '" + param + "': unexpected key '" + e.getKey() + "'");
            }
            List<Object> allowedForKey = allowedValues(answer.get(e.getKey()));
            List<Object> standardAllowed = new ArrayList<>();
            for (Object v : allowedForKey) standardAllowed.add(standardizeIfString(v));
            if (!pyIn(standardizeIfString(e.getValue()), standardAllowed)) {
                return CheckResult.fail(CheckError.DICT_VALUE, "parameter '" + param + "': key '" + e.getKey() + "' = "
                        + e.getValue() + ", expected one of " + allowedForKey);
            }
        }
        for (Map.Entry<?, ?> e : answer.entrySet()) {
            if (!value.containsKey(e.getKey()) && !omittable(e.getValue())) {
                return CheckResult.fail(CheckError.DICT_KEY, "parameter '" + param + "': missing key '" + e.getKey() + "'");
            }
        }
        return CheckResult.correct();
    }

    /** A list of dicts matches an allowed list of the same length whose dicts match in order. */
    private static CheckResult checkListOfDicts(String param, List<?> value, List<Object> allowed) {
        CheckResult last = CheckResult.fail(CheckError.LIST_VALUE, "parameter '" + param + "' = " + value + " matches no allowed list");
        for (Object a : allowed) {
            // BFCL takes "" for a list of no dicts
            List<?> answer = PossibleCall.OMITTABLE.equals(a) ? List.of() : a instanceof List<?> l ? l : null;
            if (answer == null) continue;
            if (answer.size() != value.size()) {
                last = CheckResult.fail(CheckError.LIST_DICT_COUNT, "parameter '" + param + "' has " + value.size()
                        + " dicts, expected " + answer.size());
                continue;
            }
            last = CheckResult.correct();
            for (int i = 0; i < value.size() && last.isCorrect(); i++) {
                last = value.get(i) instanceof Map<?, ?> v && answer.get(i) instanceof Map<?, ?> d
                        ? dictAgainst(param, v, d)
                        : CheckResult.fail(CheckError.NESTED_TYPE_ERROR, "parameter '" + param + "' element " + i + " is not a dict");
            }
            if (last.isCorrect()) return last;
        }
        return last;
    }

    /**
     * The values a dict key allows. BFCL iterates the answer's value as it is: a list gives its items, a string its
     * characters (BFCL's Java gold has such keys, so only a one-letter value can match them).
     */
    private static List<Object> allowedValues(Object answerValue) {
        if (answerValue instanceof List<?> l) return new ArrayList<>(l);
        if (answerValue instanceof String s) return new ArrayList<>(s.codePoints().mapToObj(Character::toString).toList());
        return Collections.singletonList(answerValue);
    }

    /** Whether a dict key may be left out: Python's {@code "" in value}, true of every string. */
    private static boolean omittable(Object answerValue) {
        return answerValue instanceof List<?> l ? l.contains(PossibleCall.OMITTABLE) : answerValue instanceof String;
    }

    /** Parallel: each expected call, in order, takes the first model call left that fits it (BFCL's greedy pass). */
    private CheckResult matchInAnyOrder(CallingExample example, List<PossibleCall> expected, List<ToolCall> calls) {
        boolean[] taken = new boolean[calls.size()];
        for (int e = 0; e < expected.size(); e++) {
            List<String> why = new ArrayList<>();
            int match = -1;
            for (int c = 0; c < calls.size() && match < 0; c++) {
                if (taken[c]) continue;
                CheckResult r = checkCall(example, expected.get(e), calls.get(c));
                if (r.isCorrect()) match = c;
                else why.add("call " + c + ": " + r);
            }
            if (match < 0) {
                return CheckResult.fail(CheckError.NO_MATCH, "expected call " + e + " (" + expected.get(e).name()
                        + ") matches no remaining model call; " + String.join("; ", why));
            }
            taken[match] = true;
        }
        return CheckResult.correct();
    }
}
