package dev.toolcoach.tasks.calling;

import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>It follows gorilla's {@code ast_checker.py}: the function name must match; required parameters
 * must be present and no undeclared or unexpected ones; values are type-checked against the schema
 * (an int is accepted for a float; unlike BFCL, a value of another type is never taken for a
 * variable name, so the check also validates dataset gold calls); strings are compared after BFCL's standardisation; dicts, lists and lists
 * of dicts are compared element-wise; an optional parameter may be left out only when {@code ""} is
 * among its allowed values. Simple and multiple examples expect exactly one call. Parallel calls
 * are matched in any order; unlike BFCL's greedy pass, the matching is a full bipartite one, so an
 * answer is never rejected because an earlier expected call took a model call another one needed.
 */
public final class CallChecker {

    public CheckResult check(CallingExample example, List<ToolCall> calls) {
        List<PossibleCall> expected = example.expected();
        if (calls.size() != expected.size()) {
            return CheckResult.fail(CheckError.WRONG_COUNT, "expected " + expected.size() + " call(s), got " + calls.size());
        }
        if (example.category() != CallCategory.PARALLEL && expected.size() == 1) {
            return checkCall(example, expected.get(0), calls.get(0));
        }
        return matchInAnyOrder(example, expected, calls);
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
        for (Map.Entry<String, Object> arg : call.arguments().entrySet()) {
            String param = arg.getKey();
            if (!doc.properties().containsKey(param) || !expected.allowed().containsKey(param)) {
                return CheckResult.fail(CheckError.UNEXPECTED_PARAM, "unexpected parameter '" + param + "'");
            }
            CheckResult r = checkValue(param, arg.getValue(), doc.typeOf(param), doc.itemTypeOf(param),
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

    private CheckResult checkValue(String param, Object value, ParamType type, ParamType itemType, List<Object> allowed) {
        JsonKind kind = JsonKind.of(value);
        if (!type.accepts(kind)) {
            return CheckResult.fail(CheckError.TYPE_ERROR, "parameter '" + param + "' should be " + type.schemaName()
                    + ", got " + kind.name().toLowerCase(Locale.ROOT) + " " + value);
        }
        if (type.isSequence() && itemType != null) {
            for (Object item : (List<?>) value) {
                if (!itemType.accepts(JsonKind.of(item))) {
                    return CheckResult.fail(CheckError.NESTED_TYPE_ERROR, "parameter '" + param + "' should be a "
                            + type.schemaName() + " of " + itemType.schemaName() + ", got element " + item);
                }
            }
        }
        // dicts are compared key by key only where the schema declares them (possible answers are then per key)
        if (type == ParamType.DICT) return checkDict(param, (Map<?, ?>) value, allowed);
        if (type.isSequence() && itemType == ParamType.DICT) return checkListOfDicts(param, (List<?>) value, allowed);
        return switch (kind) {
            case STRING -> checkString(param, (String) value, allowed);
            case ARRAY -> checkList(param, (List<?>) value, allowed);
            default -> membership(param, value, allowed);
        };
    }

    private static CheckResult membership(String param, Object value, List<Object> allowed) {
        return pyIn(value, allowed) ? CheckResult.correct()
                : CheckResult.fail(CheckError.VALUE, "parameter '" + param + "' = " + value + ", expected one of " + allowed);
    }

    private static CheckResult checkString(String param, String value, List<Object> allowed) {
        String got = standardize(value);
        for (Object a : allowed) {
            if (a instanceof String s && !s.isEmpty() && standardize(s).equals(got)) return CheckResult.correct();
        }
        return CheckResult.fail(CheckError.STRING_VALUE, "parameter '" + param + "' = \"" + value
                + "\", expected one of " + allowed + " (case, spaces and ,./-_*^ ignored)");
    }

    private static CheckResult checkList(String param, List<?> value, List<Object> allowed) {
        List<Object> got = standardizeElements(value);
        for (Object a : allowed) {
            if (a instanceof List<?> l && BfclValues.pyEquals(got, standardizeElements(l))) return CheckResult.correct();
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
            List<Object> allowedForKey = allowedList(answer.get(e.getKey()));
            List<Object> standardAllowed = new ArrayList<>();
            for (Object v : allowedForKey) standardAllowed.add(standardizeIfString(v));
            if (!pyIn(standardizeIfString(e.getValue()), standardAllowed)) {
                return CheckResult.fail(CheckError.DICT_VALUE, "parameter '" + param + "': key '" + e.getKey() + "' = "
                        + e.getValue() + ", expected one of " + allowedForKey);
            }
        }
        for (Map.Entry<?, ?> e : answer.entrySet()) {
            if (!value.containsKey(e.getKey()) && !PossibleCall.mayOmit(allowedList(e.getValue()))) {
                return CheckResult.fail(CheckError.DICT_KEY, "parameter '" + param + "': missing key '" + e.getKey() + "'");
            }
        }
        return CheckResult.correct();
    }

    /** A list of dicts matches an allowed list of the same length whose dicts match in order. */
    private static CheckResult checkListOfDicts(String param, List<?> value, List<Object> allowed) {
        CheckResult last = CheckResult.fail(CheckError.LIST_VALUE, "parameter '" + param + "' = " + value + " matches no allowed list");
        for (Object a : allowed) {
            if (!(a instanceof List<?> answer)) continue;
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

    private static List<Object> allowedList(Object answerValue) {
        return answerValue instanceof List<?> l ? new ArrayList<>(l) : List.of(answerValue);
    }

    /** Parallel: every expected call must be matched by a distinct model call, order free. */
    private CheckResult matchInAnyOrder(CallingExample example, List<PossibleCall> expected, List<ToolCall> calls) {
        int n = expected.size();
        boolean[][] fits = new boolean[n][n];
        List<List<String>> why = new ArrayList<>();
        for (int e = 0; e < n; e++) {
            List<String> reasons = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                CheckResult r = checkCall(example, expected.get(e), calls.get(c));
                fits[e][c] = r.isCorrect();
                if (!r.isCorrect()) reasons.add("call " + c + ": " + r);
            }
            why.add(reasons);
        }
        int[] callOwner = new int[n];
        Arrays.fill(callOwner, -1);
        for (int e = 0; e < n; e++) {
            if (!augment(e, fits, callOwner, new boolean[n])) {
                return CheckResult.fail(CheckError.NO_MATCH, "expected call " + e + " (" + expected.get(e).name()
                        + ") matches no remaining model call; " + String.join("; ", why.get(e)));
            }
        }
        return CheckResult.correct();
    }

    /** Kuhn's augmenting path: gives expected call e a model call, moving earlier assignments if needed. */
    private static boolean augment(int e, boolean[][] fits, int[] callOwner, boolean[] seen) {
        for (int c = 0; c < callOwner.length; c++) {
            if (!fits[e][c] || seen[c]) continue;
            seen[c] = true;
            if (callOwner[c] < 0 || augment(callOwner[c], fits, callOwner, seen)) {
                callOwner[c] = e;
                return true;
            }
        }
        return false;
    }
}
