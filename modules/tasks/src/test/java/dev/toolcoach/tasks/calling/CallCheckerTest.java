package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker's rules on small hand-written examples, one rule per test. */
class CallCheckerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final CallChecker checker = new CallChecker();

    private static FunctionDoc doc(String json) throws Exception {
        return FunctionDoc.fromJson(JSON.readTree(json));
    }

    private static final String ROUTE = """
            {"name": "route", "parameters": {"type": "dict", "properties": {
               "city": {"type": "string"}, "speed": {"type": "float"}, "stops": {"type": "integer"},
               "coords": {"type": "tuple", "items": {"type": "float"}},
               "filter": {"type": "dict", "properties": {"kind": {"type": "string"}, "max": {"type": "integer"}}},
               "legs": {"type": "array", "items": {"type": "dict"}},
               "tags": {"type": "array", "items": {"type": "string"}}, "note": {"type": "any"}}, "required": ["city"]}}""";

    private CallingExample example(CallCategory category, List<PossibleCall> expected) throws Exception {
        return new CallingExample("t", category, List.of(Message.user("q")), List.of(doc(ROUTE)), expected);
    }

    private CheckResult check(Map<String, List<Object>> allowed, Map<String, Object> args) throws Exception {
        return checker.check(example(CallCategory.SIMPLE, List.of(new PossibleCall("route", allowed))),
                List.of(new ToolCall("route", args)));
    }

    @Test
    void anIntegerIsAcceptedForAFloatButNotTheReverse() throws Exception {
        assertTrue(check(Map.of("city", List.of("Paris"), "speed", List.of(50.0)), Map.of("city", "Paris", "speed", 50)).isCorrect());
        assertEquals(CheckError.TYPE_ERROR,
                check(Map.of("city", List.of("Paris"), "stops", List.of(2)), Map.of("city", "Paris", "stops", 2.0)).error());
    }

    @Test
    void stringsAreComparedAsBfclStandardisesThem() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("New York, NY"));
        assertTrue(check(allowed, Map.of("city", "new york ny")).isCorrect());
        assertTrue(check(allowed, Map.of("city", "NEW-YORK/NY.")).isCorrect());
        assertEquals(CheckError.STRING_VALUE, check(allowed, Map.of("city", "New Jersey")).error());
    }

    @Test
    void anEmptyStringAmongAllowedValuesMakesAParameterOmittable() throws Exception {
        assertTrue(check(Map.of("city", List.of("Rome"), "stops", List.of("", 3)), Map.of("city", "Rome")).isCorrect());
        assertEquals(CheckError.MISSING_OPTIONAL,
                check(Map.of("city", List.of("Rome"), "stops", List.of(3)), Map.of("city", "Rome")).error());
    }

    @Test
    void tuplesAreTypeCheckedElementWise() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("Oslo"), "coords", List.of(List.of(59.9, 10.75)));
        assertTrue(check(allowed, Map.of("city", "Oslo", "coords", List.of(59.9, 10.75))).isCorrect());
        assertEquals(CheckError.NESTED_TYPE_ERROR, check(allowed, Map.of("city", "Oslo", "coords", List.of("59.9", 10.75))).error());
        assertEquals(CheckError.LIST_VALUE, check(allowed, Map.of("city", "Oslo", "coords", List.of(10.75, 59.9))).error());
    }

    @Test
    void dictsAreComparedKeyByKey() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("Oslo"),
                "filter", List.of(Map.of("kind", List.of("Train"), "max", List.of("", 3))));
        assertTrue(check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "train"))).isCorrect());
        assertTrue(check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "train", "max", 3))).isCorrect());
        assertEquals(CheckError.DICT_VALUE, check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "bus"))).error());
        assertEquals(CheckError.DICT_KEY, check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "train", "color", "red"))).error());
        assertEquals(CheckError.DICT_KEY, check(allowed, Map.of("city", "Oslo", "filter", Map.of("max", 3))).error());
    }

    @Test
    void listsOfDictsMatchInOrderAndCount() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("Oslo"), "legs", List.of(List.of(
                Map.of("to", List.of("Bergen")), Map.of("to", List.of("Trondheim")))));
        assertTrue(check(allowed, Map.of("city", "Oslo", "legs", List.of(Map.of("to", "bergen"), Map.of("to", "Trondheim")))).isCorrect());
        assertEquals(CheckError.LIST_DICT_COUNT, check(allowed, Map.of("city", "Oslo", "legs", List.of(Map.of("to", "Bergen")))).error());
        assertEquals(CheckError.DICT_VALUE, check(allowed, Map.of("city", "Oslo",
                "legs", List.of(Map.of("to", "Trondheim"), Map.of("to", "Bergen")))).error());
    }

    @Test
    void multipleExpectsExactlyOneCall() throws Exception {
        CallingExample ex = example(CallCategory.MULTIPLE, List.of(new PossibleCall("route", Map.of("city", List.of("Oslo")))));
        ToolCall call = new ToolCall("route", Map.of("city", "Oslo"));
        assertTrue(checker.check(ex, List.of(call)).isCorrect());
        assertEquals(CheckError.WRONG_COUNT, checker.check(ex, List.of(call, call)).error());
        assertEquals(CheckError.WRONG_COUNT, checker.check(ex, List.of()).error());
    }

    @Test
    void parallelCallsAreMatchedInAnyOrderByBfclsGreedyPass() throws Exception {
        CallingExample ex = example(CallCategory.PARALLEL, List.of(
                new PossibleCall("route", Map.of("city", List.of("Oslo"))),
                new PossibleCall("route", Map.of("city", List.of("Bergen")))));
        ToolCall oslo = new ToolCall("route", Map.of("city", "Oslo"));
        ToolCall bergen = new ToolCall("route", Map.of("city", "Bergen"));
        assertTrue(checker.check(ex, List.of(bergen, oslo)).isCorrect());
        CheckResult twice = checker.check(ex, List.of(oslo, new ToolCall("route", Map.of("city", "Rome"))));
        assertEquals(CheckError.NO_MATCH, twice.error());
        assertTrue(twice.message().contains("STRING_VALUE"), twice.message());
        // expected call 0 accepts Oslo or Bergen, call 1 only Oslo: BFCL's pass gives Oslo to call 0 and fails, so must we
        CallingExample greedy = example(CallCategory.PARALLEL, List.of(
                new PossibleCall("route", Map.of("city", List.of("Oslo", "Bergen"))),
                new PossibleCall("route", Map.of("city", List.of("Oslo")))));
        assertEquals(CheckError.NO_MATCH, checker.check(greedy, List.of(oslo, bergen)).error());
        assertTrue(checker.check(greedy, List.of(bergen, oslo)).isCorrect());
    }

    @Test
    void multipleChecksTheFirstPossibleAnswerAndSimpleWantsOneCall() throws Exception {
        CallingExample two = example(CallCategory.MULTIPLE, List.of(new PossibleCall("route", Map.of("city", List.of("Oslo"))),
                new PossibleCall("route", Map.of("city", List.of("Rome")))));
        ToolCall oslo = new ToolCall("route", Map.of("city", "Oslo"));
        assertTrue(checker.check(two, List.of(oslo, new ToolCall("route", Map.of("city", "Paris")))).isCorrect(),
                "BFCL's multiple checker compares only the first call");
        assertEquals(CheckError.WRONG_COUNT, checker.check(two, List.of(oslo)).error());
        CallingExample simple = example(CallCategory.SIMPLE, List.of(new PossibleCall("route", Map.of("city", List.of("Oslo"))),
                new PossibleCall("route", Map.of("city", List.of("Rome")))));
        assertTrue(checker.check(simple, List.of(oslo)).isCorrect());
    }

    @Test
    void aValueOfThePossibleAnswersTypeIsAVariableAndComparedAsItIs() throws Exception {
        // the schema says integer, the possible answers are strings: BFCL takes a string (a variable name)
        Map<String, List<Object>> named = Map.of("city", List.of("Oslo"), "stops", List.of("n_stops"));
        assertTrue(check(named, Map.of("city", "Oslo", "stops", "n_stops")).isCorrect());
        assertEquals(CheckError.VALUE, check(named, Map.of("city", "Oslo", "stops", "N_Stops")).error(),
                "a variable is not standardised");
        assertEquals(CheckError.VALUE, check(named, Map.of("city", "Oslo", "stops", 3)).error(),
                "an integer passes the schema's type but the answer is the variable");
        assertEquals(CheckError.TYPE_ERROR, check(named, Map.of("city", "Oslo", "stops", 2.5)).error());
        // a dict where the possible answer is a string is a variable too, and not compared key by key
        assertTrue(check(Map.of("city", List.of("Oslo"), "filter", List.of("opts")), Map.of("city", "Oslo", "filter", "opts")).isCorrect());
        // the strict checker (gold against its schema) never takes a variable
        CallingExample ex = example(CallCategory.SIMPLE, List.of(new PossibleCall("route", named)));
        assertEquals(CheckError.TYPE_ERROR, CallChecker.schemaStrict().check(ex,
                List.of(new ToolCall("route", Map.of("city", "Oslo", "stops", "n_stops")))).error());
    }

    @Test
    void nullPassesWhereNullIsAPossibleAnswer() throws Exception {
        Map<String, Object> args = new java.util.HashMap<>(Map.of("city", "Oslo"));
        args.put("stops", null);
        List<Object> nullOrOmitted = new java.util.ArrayList<>(List.of(""));
        nullOrOmitted.add(null);
        assertTrue(check(Map.of("city", List.of("Oslo"), "stops", nullOrOmitted), args).isCorrect());
        assertEquals(CheckError.TYPE_ERROR, check(Map.of("city", List.of("Oslo"), "stops", List.of("", 3)), args).error());
    }

    @Test
    void anyIsAStringToBfcl() throws Exception {
        assertTrue(check(Map.of("city", List.of("Oslo"), "note", List.of("Fast Route")), Map.of("city", "Oslo", "note", "fast route")).isCorrect());
        assertEquals(CheckError.TYPE_ERROR, check(Map.of("city", List.of("Oslo"), "note", List.of("7")), Map.of("city", "Oslo", "note", 7)).error());
        assertTrue(check(Map.of("city", List.of("Oslo"), "note", List.of(7)), Map.of("city", "Oslo", "note", 7)).isCorrect(),
                "a number where the possible answer is one is a variable");
    }

    @Test
    void theOmissionMarkerIsAlsoAValueAsInBfcl() throws Exception {
        // BFCL compares a string against every string answer, "" included, and reads "" as an empty list
        assertTrue(check(Map.of("city", List.of("Oslo"), "note", List.of("", "x")), Map.of("city", "Oslo", "note", " ")).isCorrect());
        assertTrue(check(Map.of("city", List.of("Oslo"), "tags", List.of("", List.of("a"))), Map.of("city", "Oslo", "tags", List.of())).isCorrect());
        assertTrue(check(Map.of("city", List.of("Oslo"), "legs", List.of("")), Map.of("city", "Oslo", "legs", List.of())).isCorrect());
        assertEquals(CheckError.LIST_DICT_COUNT, check(Map.of("city", List.of("Oslo"), "legs", List.of("")),
                Map.of("city", "Oslo", "legs", List.of(Map.of("to", "Bergen")))).error());
    }

    @Test
    void listItemsAreCheckedOneLevelDeepAgainstTheItemTypeOrTheAnswersItemType() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("Oslo"), "coords", List.of(List.of(59, 10.75)));
        assertTrue(check(allowed, Map.of("city", "Oslo", "coords", List.of(59, 10.75))).isCorrect(),
                "an int item passes where the answer's first item is an int");
        assertEquals(CheckError.NESTED_TYPE_ERROR, check(Map.of("city", List.of("Oslo"), "coords", List.of(List.of(59.9, 10.75))),
                Map.of("city", "Oslo", "coords", List.of(59, 10.75))).error(), "items get no int-to-float conversion");
        assertTrue(check(Map.of("city", List.of("Oslo"), "tags", List.of("", List.of("a"))), Map.of("city", "Oslo", "tags", List.of("a"))).isCorrect());
    }

    @Test
    void dictValuesCompareAsPythonDoes() throws Exception {
        Map<String, List<Object>> allowed = Map.of("city", List.of("Oslo"), "filter", List.of(Map.of("kind", List.of("Train"), "max", List.of(1))));
        assertTrue(check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "train", "max", true))).isCorrect(), "True == 1");
        assertTrue(check(allowed, Map.of("city", "Oslo", "filter", Map.of("kind", "train", "max", 1.0))).isCorrect(), "1.0 == 1");
    }

    private static final String JAVA_DOC = """
            {"name": "propose", "parameters": {"type": "dict", "properties": {
               "useShortName": {"type": "boolean"}, "params": {"type": "HashMap"}, "values": {"type": "HashMap"},
               "keys": {"type": "Array", "items": {"type": "String"}}, "names": {"type": "ArrayList", "items": {"type": "String"}},
               "parts": {"type": "ArrayList", "items": {"type": "any"}}, "letter": {"type": "char"}}, "required": []}}""";

    private CheckResult checkIn(CallCategory category, String schema, Map<String, List<Object>> allowed, Map<String, Object> args)
            throws Exception {
        FunctionDoc doc = doc(schema);
        CallingExample ex = new CallingExample("t", category, List.of(Message.user("q")), List.of(doc),
                List.of(new PossibleCall(doc.name(), allowed)));
        return checker.check(ex, List.of(new ToolCall(doc.name(), args)));
    }

    /** (A): in the Java and JavaScript categories a value is source text in a string, never a JSON value. */
    @Test
    void javaValuesAreSourceTextNotJson() throws Exception {
        Map<String, List<Object>> allowed = Map.of("useShortName", List.of(true));
        assertEquals(CheckError.JAVA_TYPE_ERROR, checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("useShortName", true)).error());
        assertEquals("type_error:java", CheckError.JAVA_TYPE_ERROR.bfclLabel());
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("useShortName", "true")).isCorrect());
        assertEquals(CheckError.TYPE_ERROR, checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("useShortName", "True")).error());
        // the same question as a Python category takes the JSON value and not the text
        assertTrue(checkIn(CallCategory.SIMPLE, JAVA_DOC, allowed, Map.of("useShortName", true)).isCorrect());
        assertEquals(CheckError.TYPE_ERROR, checkIn(CallCategory.SIMPLE, JAVA_DOC, allowed, Map.of("useShortName", "true")).error());
        String jsDoc = """
                {"name": "f", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}""";
        assertEquals(CheckError.JS_TYPE_ERROR, checkIn(CallCategory.JAVASCRIPT, jsDoc, Map.of("n", List.of(3)), Map.of("n", 3)).error());
        assertTrue(checkIn(CallCategory.JAVASCRIPT, jsDoc, Map.of("n", List.of(3)), Map.of("n", "3")).isCorrect());
    }

    /** (B): Java's HashMap is a dict, its ArrayList a list and its char a string, as BFCL maps them. */
    @Test
    void javaTypeNamesMapAsBfclMapsThem() throws Exception {
        assertEquals(ParamType.DICT, ParamType.of("HashMap"));
        assertEquals(ParamType.ARRAY, ParamType.of("ArrayList"));
        assertEquals(ParamType.STRING, ParamType.of("char"));
        assertEquals(ParamType.INTEGER, ParamType.of("Bigint"));
        Map<String, List<Object>> allowed = Map.of("params", List.of(Map.of("limit", List.of(50), "schemaFilter", List.of("public"))));
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("params",
                "new HashMap<String, Object>() {{ put(\"limit\", 50); put(\"schemaFilter\", \"Public\"); }}")).isCorrect());
        assertEquals(CheckError.DICT_VALUE, checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("params",
                "new HashMap<String, Object>() {{ put(\"limit\", 51); put(\"schemaFilter\", \"public\"); }}")).error());
        assertEquals(CheckError.TYPE_ERROR, checkIn(CallCategory.JAVA, JAVA_DOC, allowed, Map.of("params", "limit=50")).error());
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, Map.of("letter", List.of("a")), Map.of("letter", "A")).isCorrect());
    }

    /** (C): BFCL's JavaScript converter strips a collection's text before it falls back to it as a variable; Java's does not. */
    @Test
    void aPaddedVariableMatchesInJavaScriptButNotInJava() throws Exception {
        String jsDoc = """
                {"name": "f", "parameters": {"type": "dict", "properties": {"config": {"type": "dict"}}, "required": []}}""";
        assertTrue(checkIn(CallCategory.JAVASCRIPT, jsDoc, Map.of("config", List.of("configObject")), Map.of("config", " configObject ")).isCorrect());
        assertEquals(CheckError.VALUE, checkIn(CallCategory.JAVA, JAVA_DOC, Map.of("values", List.of("userProfile")),
                Map.of("values", " userProfile ")).error());
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, Map.of("values", List.of("userProfile")), Map.of("values", "userProfile")).isCorrect());
    }

    /** (D): an Array of String keeps its items' quotes, an ArrayList of any keeps its items as text; BFCL scores them so. */
    @Test
    void javaCollectionQuirksCountAsTheyCountInBfcl() throws Exception {
        Map<String, List<Object>> keys = Map.of("keys", List.of(List.of("today", "yesterday")));
        assertEquals(CheckError.LIST_VALUE, checkIn(CallCategory.JAVA, JAVA_DOC, keys, Map.of("keys", "new String[]{\"today\", \"yesterday\"}")).error());
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, keys, Map.of("keys", "new String[]{today, yesterday}")).isCorrect());
        Map<String, List<Object>> names = Map.of("names", List.of(List.of("today", "yesterday")));
        assertTrue(checkIn(CallCategory.JAVA, JAVA_DOC, names, Map.of("names", "new ArrayList<>(Arrays.asList(\"today\", \"yesterday\"))")).isCorrect());
        Map<String, List<Object>> parts = Map.of("parts", List.of(Arrays.asList("userID", 42, true)));
        assertEquals(CheckError.LIST_VALUE, checkIn(CallCategory.JAVA, JAVA_DOC, parts,
                Map.of("parts", "new ArrayList<>(Arrays.asList(\"userID\", 42, true))")).error());
    }

    @Test
    void rewardNeedsWellFormedOutputAndMatchingCalls() throws Exception {
        CallingExample ex = example(CallCategory.SIMPLE, List.of(new PossibleCall("route", Map.of("city", List.of("Oslo")))));
        CallMatchReward reward = new CallMatchReward(ActionFormat.TOOL_N1, true);
        assertEquals(1.0, reward.score(ex, "<think>go</think>\n<tool_call>[{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>"));
        assertEquals(1.0, reward.score(ex, "<think>go</think><tool_call>{\"name\": \"route\", \"arguments\": {\"city\": \"oslo\"}}</tool_call>"));
        assertEquals(CheckError.FORMAT, reward.judge(ex, "<tool_call>[{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>").error());
        assertEquals(1.0, new CallMatchReward(ActionFormat.TOOL_N1, false).score(ex, "<tool_call>[{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>"));
        assertEquals(CheckError.FORMAT, reward.judge(ex, "<think>x</think><tool_call>[{\"name\": \"route\", ").error());
        assertEquals(CheckError.FORMAT, reward.judge(ex, "<think>x</think><answer>Oslo</answer>").error());
        assertEquals(0.0, reward.score(ex, "<think>x</think><tool_call>[{\"name\": \"route\", \"arguments\": {\"city\": \"Rome\"}}]</tool_call>"));
    }

    @Test
    void nativeFormatsAreScoredInTheirOwnLayout() throws Exception {
        CallingExample ex = example(CallCategory.SIMPLE, List.of(new PossibleCall("route", Map.of("city", List.of("Oslo")))));
        assertEquals(1.0, new CallMatchReward(ActionFormat.HERMES, true).score(ex,
                "<think>\ngo\n</think>\n\n<tool_call>\n{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}\n</tool_call>"));
        CallMatchReward llama = new CallMatchReward(ActionFormat.LLAMA3_JSON, false);
        assertEquals(1.0, llama.score(ex, "{\"name\": \"route\", \"parameters\": {\"city\": \"Oslo\"}}"));
        assertEquals(1.0, llama.score(ex, "<|python_tag|>{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}"), "read leniently");
        assertEquals(CheckError.FORMAT, llama.judge(ex, "Oslo, I think.").error());
        assertEquals(CheckError.FORMAT, llama.judge(ex, "<tool_call>[{\"name\": \"route\", \"arguments\": {\"city\": \"Oslo\"}}]</tool_call>").error(),
                "Tool-N1 text is not a Llama 3 call");
        List<ToolCall> calls = List.of(new ToolCall("a", Map.of("x", 1)), new ToolCall("b", Map.of("y", List.of("p", 2.5))));
        for (ActionFormat format : ActionFormat.values()) {
            if (format == ActionFormat.CODE_ACT) continue; // its calls are written as one program: a call of its own
            assertEquals(calls, ToolCallText.parse(format.codec().writeCalls(calls), format.codec()).calls(), format.formatName());
        }
    }

    @Test
    void toolCallTextNeverThrowsAndRoundTrips() {
        List<ToolCall> calls = List.of(new ToolCall("a", Map.of("x", 1)), new ToolCall("b", Map.of("y", List.of("p", 2.5))));
        assertEquals(calls, ToolCallText.parse(ActionFormat.TOOL_N1.codec().writeCalls(calls), ActionFormat.TOOL_N1.codec()).calls());
        for (String bad : List.of("", "<tool_call>", "<tool_call></tool_call>", "<tool_call>[]</tool_call>", "<tool_call>[1]</tool_call>",
                "<tool_call>{\"name\": 3}</tool_call>", "<tool_call>" + "[".repeat(100_000) + "</tool_call>", "<tool_call>{\"name\": \"a\", \"arguments\": [1]}</tool_call>", "</tool_call><tool_call>")) {
            assertFalse(ToolCallText.parse(bad, ActionFormat.TOOL_N1.codec()).ok(), bad);
        }
    }
}
