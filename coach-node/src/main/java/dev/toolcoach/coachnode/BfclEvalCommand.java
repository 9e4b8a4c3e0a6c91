package dev.toolcoach.coachnode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.tasks.calling.CallEvaluation;
import dev.toolcoach.tasks.calling.CallingExample;
import dev.toolcoach.tasks.datasets.BfclLoader;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tasks.datasets.DatasetIssue;
import dev.toolcoach.tasks.datasets.LoadResult;
import dev.toolcoach.tasks.datasets.PredictionLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.Map;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bfcl-eval}: scores model outputs on a BFCL category with the AST call checker and prints a
 * JSON summary (total, correct, accuracy, counts per error kind, and every record it could not use).
 */
@Command(name = "bfcl-eval", mixinStandardHelpOptions = true,
        description = "Score model outputs on a BFCL category with the AST call checker; prints a JSON summary.")
public final class BfclEvalCommand implements Callable<Integer> {

    @Mixin
    DeviceOption device;

    /** Exit code when an input file cannot be read at all. */
    public static final int INPUT_ERROR = 2;

    @Option(names = "--questions", required = true, description = "BFCL questions file (JSON Lines)")
    Path questions;

    @Option(names = "--answers", required = true, description = "BFCL possible-answer file (JSON Lines)")
    Path answers;

    @Option(names = "--predictions", required = true, description = "JSON Lines of {\"id\": …, \"output\": \"<model text>\"}")
    Path predictions;

    @Option(names = "--require-think", description = "count outputs without a <think> block before the calls as format errors")
    boolean requireThink;

    @Option(names = "--model", paramLabel = "DIR", description = "the model that wrote the predictions: they are read "
            + "in its native tool-call format (its family's, when it has its own chat template; else tool-n1)")
    Path model;

    @Option(names = "--action-format", paramLabel = "NAME", description = "the tool-call format of the predictions: "
            + "tool-n1, tool-n1-compact, hermes, llama3-json (default: --model's native format, else tool-n1)")
    String actionFormat;

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public Integer call() throws JsonProcessingException {
        for (Path p : List.of(questions, answers, predictions)) {
            if (!Files.isReadable(p)) return inputError("cannot read " + p);
        }
        ActionFormat format = ActionFormat.TOOL_N1;
        try {
            if (actionFormat != null) format = ActionFormat.named(actionFormat);
        } catch (IllegalArgumentException e) {
            return inputError("--action-format: " + e.getMessage());
        }
        try {
            if (actionFormat == null && model != null) format = NativeActionFormat.forModel(model);
        } catch (ModelLoadException | IllegalArgumentException e) {
            return inputError("--model: " + e.getMessage());
        }
        LoadResult<CallingExample> data;
        PredictionLoader.Predictions outputs;
        try {
            data = new BfclLoader().load(questions, answers);
            outputs = new PredictionLoader().load(predictions);
        } catch (DatasetException e) {
            return inputError(e.getMessage());
        }
        CallEvaluation.Summary s = new CallEvaluation(format, requireThink).evaluate(data.items(), outputs.outputs());
        ObjectNode out = JSON.createObjectNode();
        out.put("questions", questions.toString());
        out.put("action_format", format.formatName());
        out.put("total", s.total());
        out.put("correct", s.correct());
        out.put("accuracy", s.accuracy());
        ObjectNode errors = out.putObject("errors");
        s.errors().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> errors.put(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue()));
        out.put("missing_predictions", s.missing());
        out.put("unknown_prediction_ids", s.unknownIds());
        issues(out, "malformed_questions", data.malformed());
        issues(out, "filtered_questions", data.filtered());
        issues(out, "malformed_predictions", outputs.malformed());
        spec.commandLine().getOut().println(JSON.writeValueAsString(out));
        spec.commandLine().getOut().flush();
        return 0;
    }

    private static void issues(ObjectNode out, String field, List<DatasetIssue> issues) {
        ArrayNode array = out.putArray(field);
        issues.forEach(i -> array.add(i.toString()));
    }

    private int inputError(String message) {
        spec.commandLine().getErr().println("bfcl-eval: " + message);
        spec.commandLine().getErr().flush();
        return INPUT_ERROR;
    }
}
