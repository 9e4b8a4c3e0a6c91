package dev.toolcoach.tasks.calling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The checker on BFCL v3's Java and JavaScript files (test resources, with the verdicts BFCL's own checker gives
 * 3,834 answers to them; see the README there): the gold answers written in each language's syntax, and every
 * variant, are scored as BFCL scores them.
 */
class BfclJavaJavaScriptFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DATA = Path.of("src/test/resources/bfcl");

    private final CallChecker checker = new CallChecker();

    private static LoadResult<CallingExample> load(String category) {
        return new BfclLoader().load(DATA.resolve("BFCL_v3_" + category + ".json"),
                DATA.resolve("possible_answer/BFCL_v3_" + category + ".json"));
    }

    private static Map<String, CallingExample> examples() {
        Map<String, CallingExample> byId = new HashMap<>();
        for (String category : List.of("java", "javascript")) load(category).items().forEach(ex -> byId.put(ex.id(), ex));
        return byId;
    }

    /** BFCL's verdict as it names it: null for correct, else its error_type. */
    private String verdict(CallingExample ex, List<ToolCall> calls) {
        CheckResult r = checker.check(ex, calls);
        return r.isCorrect() ? null : r.error().bfclLabel();
    }

    @Test
    void categoriesAreToldFromFileNamesAndIds() {
        assertEquals(CallCategory.JAVA, CallCategory.fromName("BFCL_v3_java.json"));
        assertEquals(CallCategory.JAVASCRIPT, CallCategory.fromName("BFCL_v3_javascript.json"));
        assertEquals(CallCategory.JAVA, CallCategory.fromName("java_12"));
        assertEquals(CallCategory.JAVASCRIPT, CallCategory.fromName("javascript_3"));
        assertEquals(CallCategory.JAVASCRIPT, CallCategory.fromName("BFCL_v4_simple_javascript.json"));
        assertEquals(CallCategory.PARALLEL, CallCategory.fromName("BFCL_v3_live_parallel_multiple.json"));
        assertNull(CallCategory.fromName("BFCL_v3_irrelevance.json"));
    }

    @Test
    void bothFilesLoadWhole() {
        for (String category : List.of("java", "javascript")) {
            LoadResult<CallingExample> data = load(category);
            assertEquals(List.of(), data.malformed(), category);
            assertEquals(List.of(), data.filtered(), category);
            assertEquals(category.equals("java") ? 100 : 50, data.items().size());
            CallCategory expected = category.equals("java") ? CallCategory.JAVA : CallCategory.JAVASCRIPT;
            data.items().forEach(ex -> assertEquals(expected, ex.category(), ex.id()));
        }
    }

    @Test
    void goldWrittenInEachLanguageIsScoredAsBfclScoresIt() throws Exception {
        Map<String, CallingExample> examples = examples();
        int golds = 0;
        for (JsonNode line : lines()) {
            if (!line.has("gold")) continue;
            CallingExample ex = examples.get(line.get("id").asText());
            assertEquals(List.of(call(line.get("gold"))), ex.oracleCalls(), ex.id());
            assertEquals(line.get("bfcl").textValue(), verdict(ex, ex.oracleCalls()), ex.id());
            golds++;
        }
        assertEquals(150, golds);
        // BFCL scores 13 of its own Java answers wrong: an Array of String keeps its items' quotes (9), an ArrayList
        // of any keeps numbers and booleans as text (2), and a HashMap answer whose values are strings, not lists of
        // them, is iterated letter by letter (2; java_67's gold also lists its four entries as four separate maps)
        Map<String, String> rejected = new TreeMap<>();
        for (String category : List.of("java", "javascript")) {
            for (DatasetIssue i : BfclLoader.goldRejected(load(category).items())) {
                rejected.put(i.location(), i.reason().replaceFirst("^BFCL scores the gold answer wrong: (\\w+):.*", "$1"));
            }
        }
        Map<String, String> expected = new TreeMap<>();
        for (String id : List.of("java_35", "java_78", "java_83", "java_85", "java_86", "java_89", "java_90", "java_91",
                "java_36", "java_65")) {
            expected.put(id, "LIST_VALUE");
        }
        expected.put("java_64", "DICT_VALUE");
        expected.put("java_68", "DICT_VALUE");
        expected.put("java_67", "DICT_KEY");
        assertEquals(expected, rejected);
    }

    @Test
    void everyAnswerIsScoredAsBfclScoresIt() throws Exception {
        Map<String, CallingExample> examples = examples();
        Map<String, ToolCall> golds = new HashMap<>();
        Map<String, Integer> verdicts = new TreeMap<>();
        for (JsonNode line : lines()) {
            String id = line.get("id").asText();
            CallingExample ex = examples.get(id);
            List<ToolCall> calls = new ArrayList<>();
            if (line.has("gold")) {
                golds.put(id, call(line.get("gold")));
                calls.add(golds.get(id));
            } else if (line.has("calls")) {
                line.get("calls").forEach(c -> calls.add(call(c)));
            } else {
                Map<String, Object> args = new LinkedHashMap<>(golds.get(id).arguments());
                line.path("drop").forEach(p -> args.remove(p.asText()));
                line.path("set").fields().forEachRemaining(e -> args.put(e.getKey(), JSON.convertValue(e.getValue(), Object.class)));
                calls.add(new ToolCall(golds.get(id).name(), args));
            }
            String bfcl = line.get("bfcl").textValue();
            assertEquals(bfcl, verdict(ex, calls), () -> id + " " + calls + ": " + checker.check(ex, calls));
            verdicts.merge(bfcl == null ? "correct" : bfcl, 1, Integer::sum);
        }
        System.out.println("BFCL Java/JavaScript: every verdict agrees with BFCL's " + verdicts);
        assertEquals(3834, verdicts.values().stream().mapToInt(Integer::intValue).sum());
    }

    private static List<JsonNode> lines() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(DATA.resolve("java_javascript_verdicts.jsonl"))) out.add(JSON.readTree(line));
        return out;
    }

    private static ToolCall call(JsonNode node) {
        Map.Entry<String, JsonNode> only = node.fields().next();
        Map<String, Object> args = new LinkedHashMap<>();
        only.getValue().fields().forEachRemaining(e -> args.put(e.getKey(), JSON.convertValue(e.getValue(), Object.class)));
        return new ToolCall(only.getKey(), args);
    }
}
