package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.cluster.node.NodeCli;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.testkit.SharedData;
import dev.toolcoach.testkit.TinyChatModel;
import dev.toolcoach.testkit.ToolCallingModel;
import dev.toolcoach.trace.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.util.Collections;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BfclEvalCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return new CommandLine(new BfclEvalCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    }

    @Test
    void printsSummaryOfCorrectWrongMissingAndMalformedPredictions() throws Exception {
        Path bfcl = SharedData.require("bfcl");
        Path questions = bfcl.resolve("BFCL_v3_parallel.json");
        Path answers = bfcl.resolve("possible_answer/BFCL_v3_parallel.json");
        List<CallingExample> items = new BfclLoader().load(questions, answers).items();

        List<String> lines = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            CallingExample ex = items.get(i);
            List<ToolCall> calls = new ArrayList<>(ex.oracleCalls());
            if (i == 190) continue;                                 // one missing prediction
            if (i % 10 == 1) calls.remove(calls.size() - 1);        // 20 with a call too few
            if (i % 10 == 2) Collections.reverse(calls);  // order does not matter
            String output = i == 3 ? "<tool_call>[{\"name\": broken</tool_call>" : ActionFormat.TOOL_N1.codec().writeCalls(calls);
            lines.add(JSON.writeValueAsString(Map.of("id", ex.id(), "output", output)));
        }
        lines.add(5, "{\"id\": \"parallel_x\" ");                  // malformed line 6
        lines.add(JSON.writeValueAsString(Map.of("id", "no_such_id", "output", "")));
        Path predictions = Files.write(dir.resolve("pred.jsonl"), lines);

        int code = run("--questions", questions.toString(), "--answers", answers.toString(), "--predictions", predictions.toString());

        assertEquals(0, code, err.toString());
        JsonNode summary = JSON.readTree(out.toString());
        assertEquals(200, summary.get("total").asInt());
        assertEquals(200 - 20 - 1 - 1, summary.get("correct").asInt());
        assertEquals(0.89, summary.get("accuracy").asDouble(), 1e-9);
        assertEquals(20, summary.at("/errors/wrong_count").asInt());
        assertEquals(1, summary.at("/errors/format").asInt());
        assertEquals(1, summary.get("missing_predictions").asInt());
        assertEquals(1, summary.get("unknown_prediction_ids").asInt());
        assertEquals(1, summary.get("malformed_predictions").size());
        assertTrue(summary.get("malformed_predictions").get(0).asText().startsWith("pred.jsonl line 6"), summary.toString());
    }

    @Test
    void predictionsAreReadInTheChosenActionFormat() throws Exception {
        Path bfcl = SharedData.require("bfcl");
        Path questions = bfcl.resolve("BFCL_v3_parallel.json");
        Path answers = bfcl.resolve("possible_answer/BFCL_v3_parallel.json");
        for (ActionFormat format : List.of(ActionFormat.HERMES, ActionFormat.LLAMA3_JSON)) {
            List<String> lines = new ArrayList<>();
            for (CallingExample ex : new BfclLoader().load(questions, answers).items()) {
                lines.add(JSON.writeValueAsString(Map.of("id", ex.id(), "output", format.codec().writeCalls(ex.oracleCalls()))));
            }
            Path predictions = Files.write(dir.resolve(format.formatName() + ".jsonl"), lines);
            String[] args = {"--questions", questions.toString(), "--answers", answers.toString(), "--predictions", predictions.toString()};

            out.getBuffer().setLength(0);
            assertEquals(0, run(concat(args, "--action-format", format.formatName())), err.toString());
            JsonNode native_ = JSON.readTree(out.toString());
            assertEquals(format.formatName(), native_.get("action_format").asText());
            assertEquals(200, native_.get("correct").asInt(), native_.toString());

            out.getBuffer().setLength(0);
            assertEquals(0, run(args), err.toString());
            JsonNode asToolN1 = JSON.readTree(out.toString());
            assertEquals("tool-n1", asToolN1.get("action_format").asText(), "without a model or a format: Tool-N1");
            assertEquals(format == ActionFormat.HERMES ? 200 : 0, asToolN1.get("correct").asInt(),
                    "Tool-N1's reading takes Hermes blocks, never a bare Llama 3 object");
        }
        assertEquals(BfclEvalCommand.INPUT_ERROR, run("--questions", questions.toString(), "--answers", answers.toString(),
                "--predictions", questions.toString(), "--action-format", "json"));
        assertEquals("bfcl-eval: --action-format: unknown action format 'json'; known: tool-n1, tool-n1-compact, hermes, llama3-json, phi, code-act",
                err.toString().strip());
    }

    private static String[] concat(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    /**
     * A Qwen3 folder with Qwen3's own template that answers every question with the Hermes call simple_0 wants: the
     * command generates in the native format through the template and scores each category of a BFCL folder.
     */
    @Test
    void generatesWithALocalModelInItsNativeFormatAndScoresEveryCategory() throws Exception {
        Path bfcl = SharedData.require("bfcl");
        Path data = Files.createDirectories(dir.resolve("bfcl/possible_answer"));
        for (String category : List.of("simple", "multiple")) {
            String file = "BFCL_v3_" + category + ".json";
            int keep = category.equals("simple") ? 3 : 2;
            Files.write(dir.resolve("bfcl").resolve(file), Files.readAllLines(bfcl.resolve(file)).subList(0, keep));
            Files.write(data.resolve(file), Files.readAllLines(bfcl.resolve("possible_answer").resolve(file)).subList(0, keep));
        }
        CallingExample first = new BfclLoader().load(dir.resolve("bfcl/BFCL_v3_simple.json"),
                data.resolve("BFCL_v3_simple.json")).items().get(0);
        Path model = ToolCallingModel.write(dir.resolve("qwen3"), ModelFamily.QWEN3, TinyChatModel.SPECIALS, "<|im_end|>",
                ActionFormat.HERMES.codec().writeCalls(first.oracleCalls()));
        Files.writeString(model.resolve("chat_template.jinja"), Files.readString(SharedData.require("chat_templates/templates/qwen3.jinja")));

        assertEquals(0, run("--model", model.toString(), "--data", dir.resolve("bfcl").toString(), "--max-new-tokens", "16",
                "--batch", "2", "--device", "cpu"), err.toString());
        JsonNode summary = JSON.readTree(out.toString());
        assertEquals("hermes", summary.get("action_format").asText(), summary.toString());
        assertEquals(5, summary.get("total").asInt());
        assertEquals(1, summary.get("correct").asInt(), summary.toString());
        assertEquals(3, summary.at("/categories/simple/total").asInt());
        assertEquals(1, summary.at("/categories/simple/correct").asInt());
        assertEquals(2, summary.at("/categories/simple/errors/wrong_func_name").asInt(), summary.toString());
        assertEquals(0, summary.at("/categories/multiple/correct").asInt());
        assertEquals(0, summary.at("/categories/multiple/gold_rejected/count").asInt());

        out.getBuffer().setLength(0);
        assertEquals(0, run("--model", model.toString(), "--questions", dir.resolve("bfcl/BFCL_v3_simple.json").toString(),
                "--answers", data.resolve("BFCL_v3_simple.json").toString(), "--limit", "1", "--max-new-tokens", "16"), err.toString());
        JsonNode one = JSON.readTree(out.toString());
        assertEquals(1, one.get("total").asInt());
        assertEquals(1.0, one.get("accuracy").asDouble(), one.toString());
    }

    /** Java answers are source text: JSON values are type errors, and BFCL's own quirks count (its Array of String). */
    @Test
    void javaAnswersAreScoredAsSourceTextAsBfclScoresThem() throws Exception {
        String question = "{\"id\": \"java_%d\", \"question\": [[{\"role\": \"user\", \"content\": \"q\"}]], \"function\": [{\"name\": \"%s\", "
                + "\"description\": \"d\", \"parameters\": {\"type\": \"dict\", \"properties\": {%s}, \"required\": []}}]}";
        Path questions = Files.write(dir.resolve("BFCL_v3_java.json"), List.of(
                question.formatted(0, "f", "\"flag\": {\"type\": \"boolean\"}, \"params\": {\"type\": \"HashMap\"}"),
                question.formatted(1, "g", "\"keys\": {\"type\": \"Array\", \"items\": {\"type\": \"String\"}}"),
                question.formatted(2, "h", "\"n\": {\"type\": \"long\"}")));
        Path answers = Files.write(dir.resolve("answers.json"), List.of(
                "{\"id\": \"java_0\", \"ground_truth\": [{\"f\": {\"flag\": [true], \"params\": [{\"limit\": [50]}]}}]}",
                "{\"id\": \"java_1\", \"ground_truth\": [{\"g\": {\"keys\": [[\"a\", \"b\"]]}}]}",
                "{\"id\": \"java_2\", \"ground_truth\": [{\"h\": {\"n\": [5]}}]}"));
        List<CallingExample> items = new BfclLoader().load(questions, answers).items();
        List<String> lines = new ArrayList<>();
        for (CallingExample ex : items) {
            List<ToolCall> calls = ex.id().equals("java_2") ? List.of(new ToolCall("h", Map.of("n", 5))) : ex.oracleCalls();
            lines.add(JSON.writeValueAsString(Map.of("id", ex.id(), "output", ActionFormat.TOOL_N1.codec().writeCalls(calls))));
        }
        assertEquals("new HashMap<String, Object>() {{ put(\"limit\", 50); }}", items.get(0).oracleCalls().get(0).arguments().get("params"));
        Path predictions = Files.write(dir.resolve("pred.jsonl"), lines);

        assertEquals(0, run("--questions", questions.toString(), "--answers", answers.toString(), "--predictions", predictions.toString()),
                err.toString());
        JsonNode summary = JSON.readTree(out.toString());
        assertEquals(3, summary.get("total").asInt(), summary.toString());
        assertEquals(1, summary.get("correct").asInt(), summary.toString());
        assertEquals(1, summary.at("/errors/java_type_error").asInt(), summary.toString());
        assertEquals(1, summary.at("/errors/list_value").asInt(), summary.toString());
        assertEquals(1, summary.at("/gold_rejected/count").asInt(), summary.toString());
        assertTrue(summary.at("/gold_rejected/questions/0").asText().startsWith("java_1: BFCL scores the gold answer wrong: LIST_VALUE"),
                summary.toString());
    }

    @Test
    void aQuestionsFileThatLoadsNoQuestionIsAOneLineError() throws Exception {
        Path bfcl = SharedData.require("bfcl");
        Path questions = Files.write(dir.resolve("BFCL_v3_unknown.json"), Files.readAllLines(bfcl.resolve("BFCL_v3_simple.json"))
                .stream().map(l -> l.replace("\"simple_", "\"other_")).toList());
        Path predictions = Files.write(dir.resolve("pred.jsonl"), List.of("{\"id\": \"other_0\", \"output\": \"x\"}"));
        int code = run("--questions", questions.toString(), "--answers", bfcl.resolve("possible_answer/BFCL_v3_simple.json").toString(),
                "--predictions", predictions.toString());
        assertEquals(BfclEvalCommand.INPUT_ERROR, code);
        String message = err.toString().strip();
        assertEquals(1, message.lines().count(), message);
        // no category in the name or the ids: every question is malformed, and every answer then lacks its question
        assertEquals("bfcl-eval: " + questions + " loads no question (800 malformed, 0 filtered; first: BFCL_v3_unknown.json line 1: "
                + "cannot tell the category of other_0)", message);
        assertEquals("", out.toString());
    }

    @Test
    void aDeviceThatIsUnknownOrMissingIsAOneLineUsageError() {
        for (String device : List.of("tpu", "cuda:7")) {
            StringWriter errors = new StringWriter();
            CommandLine cli = NodeCli.commandLine(new CoachNodeMain()).setErr(new PrintWriter(errors)).setOut(new PrintWriter(out));
            int code = cli.execute("bfcl-eval", "--device", device, "--model", "m", "--data", "d");
            assertEquals(2, code, errors.toString());
            String message = errors.toString().strip();
            assertEquals(1, message.lines().count(), message);
            assertTrue(message.startsWith(device.equals("tpu")
                    ? "coach-node: --device: unknown device 'tpu' (use cpu, cuda or cuda:N)"
                    : "coach-node: --device: device 'cuda:7' is not available: PyTorch sees "), message);
        }
    }

    @Test
    void optionsThatNeedGenerationOrAnInputAreRefused() {
        assertEquals(BfclEvalCommand.INPUT_ERROR, run("--data", dir.toString()));
        assertEquals("bfcl-eval: give --predictions FILE, or --model DIR to generate them", err.toString().strip());
        err.getBuffer().setLength(0);
        assertEquals(BfclEvalCommand.INPUT_ERROR, run("--data", dir.toString(), "--predictions", "p"));
        assertEquals("bfcl-eval: --data, --adapter and --limit go with generation (no --predictions)", err.toString().strip());
        err.getBuffer().setLength(0);
        assertEquals(BfclEvalCommand.INPUT_ERROR, run("--model", dir.toString(), "--data", dir.toString()));
        assertTrue(err.toString().startsWith("bfcl-eval: --data " + dir + " holds no BFCL_v3_*.json category"), err.toString());
    }

    @Test
    void unreadableInputIsAClearErrorNotAStackTrace() {
        int code = run("--questions", dir.resolve("absent.json").toString(), "--answers", "a", "--predictions", "p");
        assertEquals(BfclEvalCommand.INPUT_ERROR, code);
        assertTrue(err.toString().startsWith("bfcl-eval: cannot read "), err.toString());
        assertEquals("", out.toString());
    }
}
