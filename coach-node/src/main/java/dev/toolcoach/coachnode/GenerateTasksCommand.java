package dev.toolcoach.coachnode;

import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.brain.zerolearn.ZeroLearn;
import dev.toolcoach.brain.zerolearn.ZeroLearnRequest;
import dev.toolcoach.brain.zerolearn.ZeroLearnResult;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.openai.OpenAiException;
import dev.toolcoach.tools.exec.ToolExecutor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code generate-tasks}: Zero-Learn from the command line. Writes the kept queries as a JSON Lines
 * training dataset and prints a JSON summary with the rejection counts.
 */
@Command(name = "generate-tasks", mixinStandardHelpOptions = true,
        description = "Generate training queries for a task from its tools' specifications with an external model (Zero-Learn).")
public final class GenerateTasksCommand implements Callable<Integer> {

    @Mixin
    EndpointOptions endpoint;

    @Option(names = "--task-description", required = true, description = "what the agent should learn to do")
    String taskDescription;

    @Option(names = "--tools", required = true, description = "built-in tool suite the queries are for (arithmetic, finance, sql, ...)")
    String suite;

    @Option(names = "--num-examples", defaultValue = "20", description = "queries to keep (default: ${DEFAULT-VALUE})")
    int numExamples;

    @Option(names = "--min-tool-calls", defaultValue = "1", description = "least tool calls a query must need (default: ${DEFAULT-VALUE})")
    int minToolCalls;

    @Option(names = "--max-words", defaultValue = "50", description = "most words per query (default: ${DEFAULT-VALUE})")
    int maxWords;

    @Option(names = "--guidance", description = "an example query showing the wanted style")
    String guidance;

    @Option(names = "--self-rank", description = "have the model rank the kept queries, best first")
    boolean selfRank;

    @Option(names = "--max-replies", defaultValue = "3", description = "most generation replies (default: ${DEFAULT-VALUE})")
    int maxReplies;

    @Option(names = "--out", required = true, description = "JSON Lines file to write the examples to")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (ToolExecutor tools = ToolOptions.open(suite)) {
            ZeroLearnRequest request = new ZeroLearnRequest(taskDescription, numExamples, minToolCalls, maxWords,
                    guidance, tools.specs(), selfRank);
            ZeroLearn zeroLearn = new ZeroLearn(new OpenAiClient(endpoint.config()), maxReplies, 2, 0.8);
            ZeroLearnResult result = zeroLearn.generate(request);
            ExampleJsonl.write(out, result.examples());
            Map<String, Object> summary = new LinkedHashMap<>();
            summary.put("kept", result.examples().size());
            summary.put("asked", numExamples);
            summary.put("rejected", result.rejected());
            summary.put("generation_replies", result.generationReplies());
            summary.put("ranked", result.ranked());
            summary.put("unusable_rankings", result.unusableRankings());
            summary.put("out", out.toString());
            return CommandOutput.summary(spec, summary);
        } catch (UsageException | IllegalArgumentException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
        } catch (OpenAiException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, e.getMessage() + " (nothing written)");
        } catch (UncheckedIOException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, e.getMessage());
        }
    }
}
