package dev.toolcoach.coachnode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.testkit.SharedData;
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

    @Test
    void unreadableInputIsAClearErrorNotAStackTrace() {
        int code = run("--questions", dir.resolve("absent.json").toString(), "--answers", "a", "--predictions", "p");
        assertEquals(BfclEvalCommand.INPUT_ERROR, code);
        assertTrue(err.toString().startsWith("bfcl-eval: cannot read "), err.toString());
        assertEquals("", out.toString());
    }
}
