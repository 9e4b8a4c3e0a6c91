package dev.toolcoach.tasks.datasets;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolcoach.tasks.calling.CallCategory;
import dev.toolcoach.tasks.calling.CallChecker;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.calling.CheckResult;
import dev.toolcoach.tasks.calling.FunctionDoc;
import dev.toolcoach.tasks.calling.PossibleCall;
import dev.toolcoach.trace.Message;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads a Berkeley Function Calling Leaderboard (v3) category: a questions file
 * ({@code {id, question: [[{role, content}]], function: [schemas]}} per line) joined by id with its
 * possible-answer file ({@code {id, ground_truth: [{func: {param: [allowed values]}}]}} per line).
 *
 * <p>BFCL's simple checker takes the function name from the question's only function and ignores
 * the ground truth's key, so where a simple item's ground truth names a function that is not offered
 * (BFCL v3 simple_363 says {@code find_closest} for {@code restaurant_search.find_closest}) the
 * offered name is used, as BFCL scores it. The category comes from the file name, else from each id
 * ({@code java_0}); in the Java and JavaScript categories the answers are checked as source text
 * ({@link dev.toolcoach.tasks.calling.SourceLanguage}). Every question BFCL can score is kept, even one whose own
 * gold answer BFCL scores wrong ({@link #goldRejected} names them); one it cannot score (a call to a function it
 * does not offer, a Java or JavaScript type its converter does not take) is filtered.
 */
public final class BfclLoader {

    public LoadResult<CallingExample> load(Path questions, Path answers) {
        List<DatasetIssue> malformed = new ArrayList<>();
        List<DatasetIssue> filtered = new ArrayList<>();
        Map<String, List<PossibleCall>> groundTruth = readAnswers(answers, malformed);
        CallCategory fileCategory = CallCategory.fromName(questions.getFileName().toString());
        List<CallingExample> items = new ArrayList<>();
        JsonRecords.forEachLine(questions, (location, number, node) -> {
            String id = JsonRecords.text(node, "id");
            CallCategory category = fileCategory != null ? fileCategory : CallCategory.fromName(id);
            if (category == null) throw new IllegalArgumentException("cannot tell the category of " + id);
            List<PossibleCall> expected = groundTruth.remove(id);
            if (expected == null) throw new IllegalArgumentException(id + " has no possible answer in " + answers.getFileName());
            List<FunctionDoc> functions = functions(node.get("function"));
            CallingExample example = new CallingExample(id, category, messages(node.get("question")), functions,
                    resolveSimpleName(category, functions, expected));
            GoldCallValidator.unscorable(example).ifPresentOrElse(
                    why -> filtered.add(new DatasetIssue(location + " (" + id + ")", why)),
                    () -> items.add(example));
        }, malformed);
        groundTruth.keySet().forEach(id -> malformed.add(new DatasetIssue(answers.getFileName() + " " + id,
                "possible answer without a question")));
        return new LoadResult<>(questions.getFileName().toString(), items, malformed, filtered);
    }

    /**
     * The loaded questions whose own gold answer BFCL's checker scores wrong: the first possible answer of each
     * parameter, written as the category expects it (in Java or JavaScript, in that language's syntax). A model that
     * answers them as the gold does is scored wrong, as BFCL scores it.
     */
    public static List<DatasetIssue> goldRejected(List<CallingExample> items) {
        CallChecker checker = new CallChecker();
        List<DatasetIssue> out = new ArrayList<>();
        for (CallingExample ex : items) {
            CheckResult r = checker.check(ex, ex.oracleCalls());
            if (!r.isCorrect()) out.add(new DatasetIssue(ex.id(), "BFCL scores the gold answer wrong: " + r));
        }
        return out;
    }

    private static Map<String, List<PossibleCall>> readAnswers(Path answers, List<DatasetIssue> malformed) {
        Map<String, List<PossibleCall>> byId = new LinkedHashMap<>();
        Map<String, String> firstSeen = new HashMap<>();
        JsonRecords.forEachLine(answers, (location, number, node) -> {
            String id = JsonRecords.text(node, "id");
            if (firstSeen.putIfAbsent(id, location) != null) {
                throw new IllegalArgumentException("duplicate id " + id + " (first at " + firstSeen.get(id) + ")");
            }
            JsonNode truth = node.get("ground_truth");
            if (truth == null || !truth.isArray()) throw new IllegalArgumentException(id + ": ground_truth is not a list");
            List<PossibleCall> calls = new ArrayList<>();
            for (JsonNode call : truth) calls.add(possibleCall(id, call));
            byId.put(id, calls);
        }, malformed);
        return byId;
    }

    private static PossibleCall possibleCall(String id, JsonNode call) {
        if (!call.isObject() || call.size() != 1) {
            throw new IllegalArgumentException(id + ": a ground-truth call must be {function: {param: [values]}}");
        }
        Map.Entry<String, JsonNode> only = call.fields().next();
        if (!only.getValue().isObject()) throw new IllegalArgumentException(id + ": arguments of " + only.getKey() + " are not an object");
        Map<String, List<Object>> allowed = new LinkedHashMap<>();
        only.getValue().fields().forEachRemaining(p -> {
            if (!p.getValue().isArray()) {
                throw new IllegalArgumentException(id + ": allowed values of " + only.getKey() + "." + p.getKey() + " are not a list");
            }
            allowed.put(p.getKey(), JsonRecords.toList(p.getValue()));
        });
        return new PossibleCall(only.getKey(), allowed);
    }

    private static List<PossibleCall> resolveSimpleName(CallCategory category, List<FunctionDoc> functions, List<PossibleCall> expected) {
        if (!category.singleCall() || functions.size() != 1 || expected.size() != 1) return expected;
        PossibleCall only = expected.get(0);
        String offered = functions.get(0).name();
        return only.name().equals(offered) ? expected : List.of(new PossibleCall(offered, only.allowed()));
    }

    private static List<FunctionDoc> functions(JsonNode node) {
        if (node == null || !node.isArray() || node.isEmpty()) throw new IllegalArgumentException("function is not a non-empty list");
        List<FunctionDoc> out = new ArrayList<>();
        for (JsonNode f : node) out.add(FunctionDoc.fromJson(f));
        return out;
    }

    /** The first turn of the question (BFCL v3 single-turn categories hold one). */
    private static List<Message> messages(JsonNode question) {
        if (question == null || !question.isArray() || question.isEmpty() || !question.get(0).isArray()) {
            throw new IllegalArgumentException("question is not a list of turns");
        }
        List<Message> out = new ArrayList<>();
        for (JsonNode m : question.get(0)) {
            out.add(new Message(JsonRecords.text(m, "role"), m.path("content").asText("")));
        }
        return out;
    }
}
