package dev.toolcoach.tasks.datasets;

import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.tasks.calling.CallCategory;
import dev.toolcoach.tasks.calling.CallChecker;
import dev.toolcoach.tasks.calling.CallingExample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DatasetLoadersTest {

    @TempDir
    Path dir;

    private final CallChecker checker = new CallChecker();

    private void assertOracleSolvesAll(List<CallingExample> items) {
        for (CallingExample ex : items) {
            assertTrue(checker.check(ex, ex.oracleCalls()).isCorrect(), ex.id());
        }
    }

    @Test
    void xlamToolAlpacaLoadsAndFiltersInvalidGoldCalls() {
        LoadResult<CallingExample> r = new XlamLoader().load(SharedData.require("toolcall/toolalpaca_xlam_format.json"), "xlam");
        System.out.println(r.summary());
        assertEquals(114, r.items().size() + r.filtered().size());
        assertEquals(List.of(), r.malformed());
        // ToolAlpaca's own data: 6 calls to tools the item does not offer, 5 with arguments of the wrong type
        assertEquals(103, r.items().size());
        assertEquals(6, r.filtered().stream().filter(i -> i.reason().startsWith("calls undeclared function")).count());
        assertEquals(5, r.filtered().stream().filter(i -> i.reason().contains("TYPE_ERROR")).count());
        assertTrue(r.items().stream().anyMatch(ex -> ex.category() == CallCategory.PARALLEL));
        assertOracleSolvesAll(r.items());
    }

    @Test
    void glaiveConversationsAreSplitIntoOneExamplePerCall() {
        LoadResult<CallingExample> r = new GlaiveLoader().load(SharedData.require("toolcall/glaive_toolcall_en_demo.json"), "glaive");
        System.out.println(r.summary());
        assertEquals(List.of(), r.malformed());
        assertEquals(209, r.items().size(), r.summary());
        assertEquals(2, r.filtered().size(), r.filtered().toString());
        CallingExample second = r.items().stream().filter(ex -> ex.id().endsWith("_step1")).findFirst().orElseThrow();
        // the second call of a conversation sees the first one and its observation
        assertTrue(second.messages().stream().anyMatch(m -> m.role().equals("tool")));
        assertTrue(second.messages().stream().anyMatch(m -> m.content().startsWith("<tool_call>")));
        assertOracleSolvesAll(r.items());
    }

    @Test
    void malformedItemsAreSkippedWithTheirIndexAndTheRestLoads() throws Exception {
        Path file = Files.writeString(dir.resolve("x.json"), """
                [ {"query": "add 1 and 2", "tools": [{"name": "add", "parameters": {"a": {"type": "integer", "required": true}, "b": {"type": "integer", "required": true}}}],
                   "answers": [{"name": "add", "arguments": {"a": 1, "b": 2}}]},
                  {"tools": []},
                  {"query": "q", "tools": [{"name": "add", "parameters": {"a": {"type": "integer", "required": true}}}],
                   "answers": [{"name": "add", "arguments": {"a": "one"}}]},
                  {"query": "q", "tools": [{"name": "add", "parameters": {"a": {"type": "integer", "required": true}}}],
                   "answers": [{"name": "add", "arguments": {}}]},
                  {"query": "add 3 and 4", "tools": [{"name": "add", "parameters": {"a": {"type": "integer", "required": true}, "b": {"type": "integer", "required": true}}}],
                   "answers": [{"name": "add", "arguments": {"a": 3, "b": 4}}]}
                ]""");
        LoadResult<CallingExample> r = new XlamLoader().load(file, "t");
        assertEquals(List.of("t_0", "t_4"), r.items().stream().map(CallingExample::id).toList());
        assertEquals(1, r.malformed().size());
        assertTrue(r.malformed().get(0).location().startsWith("x.json item 1"), r.malformed().toString());
        assertEquals(2, r.filtered().size());
        assertTrue(r.filtered().get(0).reason().contains("TYPE_ERROR"), r.filtered().toString());
        assertTrue(r.filtered().get(1).reason().contains("MISSING_REQUIRED"), r.filtered().toString());
    }

    @Test
    void aSyntaxErrorKeepsWhatCameBeforeAndSaysWhere() throws Exception {
        Path file = Files.writeString(dir.resolve("g.json"), """
                [ {"conversations": [{"from": "human", "value": "hi"}, {"from": "function_call", "value": "{\\"name\\": \\"f\\", \\"arguments\\": {}}"}],
                   "tools": "[{\\"name\\": \\"f\\", \\"parameters\\": {\\"type\\": \\"object\\", \\"properties\\": {}}}]"},
                  {"conversations": [ {"from": "human", "value": }
                ]""");
        LoadResult<CallingExample> r = new GlaiveLoader().load(file, "g");
        assertEquals(List.of("g_0_step0"), r.items().stream().map(CallingExample::id).toList());
        assertEquals(1, r.malformed().size());
        assertTrue(r.malformed().get(0).reason().contains("line 3"), r.malformed().toString());
    }

    @Test
    void badBfclLinesAreCountedWithTheirLineNumber() throws Exception {
        Path q = Files.write(dir.resolve("BFCL_v3_simple.json"), List.of(
                "{\"id\": \"simple_0\", \"question\": [[{\"role\": \"user\", \"content\": \"hi\"}]], \"function\": [{\"name\": \"f\", \"parameters\": {\"type\": \"dict\", \"properties\": {\"x\": {\"type\": \"integer\"}}, \"required\": [\"x\"]}}]}",
                "{\"id\": \"simple_1\", \"question\": [[{\"role\": \"user\"",
                "{\"id\": \"simple_2\", \"question\": [[{\"role\": \"user\", \"content\": \"hi\"}]], \"function\": [{\"name\": \"f\", \"parameters\": {\"type\": \"dict\", \"properties\": {\"x\": {\"type\": \"integer\"}}, \"required\": [\"x\"]}}]}"));
        Path a = Files.write(dir.resolve("answers.json"), List.of(
                "{\"id\": \"simple_0\", \"ground_truth\": [{\"f\": {\"x\": [1]}}]}",
                "{\"id\": \"simple_2\", \"ground_truth\": [{\"f\": {\"x\": 3}}]}"));
        LoadResult<CallingExample> r = new BfclLoader().load(q, a);
        assertEquals(List.of("simple_0"), r.items().stream().map(CallingExample::id).toList());
        assertEquals(List.of("answers.json line 2", "BFCL_v3_simple.json line 2", "BFCL_v3_simple.json line 3"),
                r.malformed().stream().map(DatasetIssue::location).toList());
        assertTrue(r.malformed().get(2).reason().contains("no possible answer"), r.malformed().toString());
    }

    @Test
    void aBfclQuestionWhoseGoldBfclScoresWrongIsKeptAndNamed() throws Exception {
        String question = "{\"id\": \"multiple_%d\", \"question\": [[{\"role\": \"user\", \"content\": \"hi\"}]], \"function\": "
                + "[{\"name\": \"f\", \"parameters\": {\"type\": \"dict\", \"properties\": {\"x\": {\"type\": \"integer\"}}, \"required\": [\"x\"]}}]}";
        Path q = Files.write(dir.resolve("BFCL_v3_multiple.json"),
                List.of(question.formatted(0), question.formatted(1), question.formatted(2), question.formatted(3)));
        Path a = Files.write(dir.resolve("answers.json"), List.of(
                "{\"id\": \"multiple_0\", \"ground_truth\": [{\"f\": {\"x\": [1]}}]}",
                "{\"id\": \"multiple_1\", \"ground_truth\": [{\"f\": {\"x\": [\"n\"]}}]}",
                "{\"id\": \"multiple_2\", \"ground_truth\": [{\"g\": {\"x\": [1]}}]}",
                "{\"id\": \"multiple_3\", \"ground_truth\": [{\"f\": {\"x\": [\"\"]}}]}"));
        LoadResult<CallingExample> r = new BfclLoader().load(q, a);
        assertEquals(List.of("multiple_0", "multiple_1", "multiple_3"), r.items().stream().map(CallingExample::id).toList());
        assertEquals(List.of("calls undeclared function g"), r.filtered().stream().map(DatasetIssue::reason).toList());
        // a string where an integer is declared breaks the schema, but BFCL takes it as a variable
        CallingExample variable = r.items().get(1);
        assertTrue(checker.check(variable, variable.oracleCalls()).isCorrect(), "BFCL takes the gold string as a variable");
        // a required parameter whose only answer is "" leaves the gold without it
        List<DatasetIssue> rejected = BfclLoader.goldRejected(r.items());
        assertEquals(List.of("multiple_3"), rejected.stream().map(DatasetIssue::location).toList());
        assertTrue(rejected.get(0).reason().contains("MISSING_REQUIRED"), rejected.toString());
    }

    @Test
    void aJavaQuestionWithATypeBfclCannotConvertIsFilteredWithTheReason() throws Exception {
        String question = "{\"id\": \"java_%d\", \"question\": [[{\"role\": \"user\", \"content\": \"hi\"}]], \"function\": "
                + "[{\"name\": \"f\", \"parameters\": {\"type\": \"dict\", \"properties\": {\"x\": %s}, \"required\": [\"x\"]}}]}";
        Path q = Files.write(dir.resolve("questions.json"), List.of(question.formatted(0, "{\"type\": \"Set\"}"),
                question.formatted(1, "{\"type\": \"Array\"}"), question.formatted(2, "{\"type\": \"Array\", \"items\": {\"type\": \"char\"}}")));
        Path a = Files.write(dir.resolve("answers.json"), List.of("{\"id\": \"java_0\", \"ground_truth\": [{\"f\": {\"x\": [\"s\"]}}]}",
                "{\"id\": \"java_1\", \"ground_truth\": [{\"f\": {\"x\": [[1]]}}]}",
                "{\"id\": \"java_2\", \"ground_truth\": [{\"f\": {\"x\": [[\"c\"]]}}]}"));
        LoadResult<CallingExample> r = new BfclLoader().load(q, a);
        assertEquals(List.of("java_2"), r.items().stream().map(CallingExample::id).toList());
        assertEquals(List.of("parameter x of f: BFCL does not convert the Java type 'Set'", "parameter x of f: the Array declares no item type"),
                r.filtered().stream().map(DatasetIssue::reason).toList());
    }

    @Test
    void aMissingFileIsAClearError() {
        DatasetException e = assertThrows(DatasetException.class, () -> new XlamLoader().load(dir.resolve("none.json"), "x"));
        assertTrue(e.getMessage().endsWith("none.json: no such file"), e.getMessage());
    }
}
