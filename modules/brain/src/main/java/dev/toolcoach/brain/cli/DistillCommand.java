package dev.toolcoach.brain.cli;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.scripted.ByteTokenizer;
import dev.toolcoach.agent.scripted.ChatMlFormat;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.DistillSettings;
import dev.toolcoach.brain.distill.Distiller;
import dev.toolcoach.brain.distill.OpenAiTeacher;
import dev.toolcoach.brain.distill.OracleTeacher;
import dev.toolcoach.brain.distill.Student;
import dev.toolcoach.brain.distill.Teacher;
import dev.toolcoach.brain.distill.TeacherUnavailableException;
import dev.toolcoach.brain.distill.TraceCache;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskReward;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.TraceJson;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code distill}: collects teacher demonstrations on a task or a JSON Lines dataset with the
 * student's tools, caches them, keeps those above the reward threshold and writes them out. The
 * student here is the byte-level ChatML agent; training a model on the kept traces is the learner's
 * step (the Brain wires it).
 */
@Command(name = "distill", mixinStandardHelpOptions = true,
        description = "Collect teacher traces (cached), keep those whose reward is above a threshold, and write them as JSON Lines.")
public final class DistillCommand implements Callable<Integer> {

    static final ByteTokenizer TOKENIZER = ByteTokenizer.chatMl();
    static final Student STUDENT = new Student("byte-chatml", TOKENIZER, new ChatMlFormat(), TOKENIZER.id(ChatMlFormat.IM_END));

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Option(names = "--task", description = "a registered task: arithmetic, finance, ...")
        String task;

        @Option(names = "--dataset", description = "a JSON Lines dataset (e.g. written by generate-tasks); needs --tools")
        Path dataset;
    }

    @Option(names = "--tools", description = "built-in tool suite for --dataset")
    String suite;

    @Option(names = "--reward", defaultValue = "exact", description = "reward for --dataset: exact, mentions or numeric (default: ${DEFAULT-VALUE})")
    String reward;

    @Option(names = "--data-dir", defaultValue = "../shared/data", description = "shared data folder for --task (default: ${DEFAULT-VALUE})")
    Path dataDir;

    @Option(names = "--seed", defaultValue = "42", description = "seed of generated tasks (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--examples", description = "use only the first N examples")
    Integer limit;

    @Option(names = "--teacher", defaultValue = "oracle", description = "oracle (the task's solutions) or endpoint (an OpenAI-compatible model) (default: ${DEFAULT-VALUE})")
    String teacherKind;

    @Mixin
    EndpointOptions endpoint;

    @Option(names = "--traces", defaultValue = "1", description = "teacher traces per example (default: ${DEFAULT-VALUE})")
    int traces;

    @Option(names = "--threshold", defaultValue = "0.9", description = "keep traces with reward above this (default: ${DEFAULT-VALUE})")
    double threshold;

    @Option(names = "--max-turns", defaultValue = "8", description = "turn limit of each rollout (default: ${DEFAULT-VALUE})")
    int maxTurns;

    @Option(names = "--cache", required = true, description = "folder of the trace cache")
    Path cacheDir;

    @Option(names = "--out", description = "JSON Lines file for the kept traces")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            DistillDataset dataset;
            String toolSuite;
            if (source.task != null) {
                Task task = TaskRegistry.standard(dataDir, seed).get(source.task);
                if (task.toolSuites().size() != 1) {
                    throw new UsageException("task '" + task.name() + "' does not run on one tool suite; use --dataset with --tools");
                }
                toolSuite = task.toolSuites().get(0);
                dataset = new DistillDataset(task.name(), first(task.examples()), task.reward());
            } else {
                if (suite == null) throw new UsageException("--dataset needs --tools");
                toolSuite = suite;
                dataset = new DistillDataset(source.dataset.getFileName().toString(), first(readDataset(source.dataset)),
                        reward(reward));
            }
            try (ToolExecutor tools = ToolOptions.open(toolSuite)) {
                DistillSettings settings = new DistillSettings(traces, threshold,
                        AgentConfig.defaults().withLimits(maxTurns, AgentConfig.defaults().maxTotalTokens()));
                Distiller distiller = new Distiller(STUDENT, tools, settings, new TraceCache(cacheDir), null);
                DistillReport report = distiller.distill(dataset, teacher(dataset, tools));
                if (out != null) {
                    Files.deleteIfExists(out);
                    TraceJson.append(out, report.kept().stream().map(ScoredTrace::trace).toList());
                }
                return CommandOutput.summary(spec, summary(report));
            }
        } catch (UsageException | IllegalArgumentException | DatasetException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
        } catch (TeacherUnavailableException | UncheckedIOException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, e.getMessage());
        } catch (java.io.IOException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, "cannot write " + out + ": " + e.getMessage());
        }
    }

    private Teacher teacher(DistillDataset dataset, ToolExecutor tools) {
        return switch (teacherKind) {
            case "oracle" -> {
                if (dataset.examples().stream().anyMatch(e -> e.solution().isEmpty())) {
                    throw new UsageException("the oracle teacher needs examples with solutions; " + dataset.id() + " has some without");
                }
                yield new OracleTeacher(dataset.id(), STUDENT);
            }
            case "endpoint" -> new OpenAiTeacher(new OpenAiClient(endpoint.config()), STUDENT, tools.specs());
            default -> throw new UsageException("--teacher must be oracle or endpoint, got '" + teacherKind + "'");
        };
    }

    private List<TaskExample> first(List<TaskExample> examples) {
        if (limit == null) return examples;
        if (limit < 1) throw new UsageException("--examples must be >= 1, got " + limit);
        return examples.subList(0, Math.min(limit, examples.size()));
    }

    private static List<TaskExample> readDataset(Path file) {
        if (!Files.isReadable(file)) throw new UsageException("cannot read dataset " + file);
        JsonLines.Read<TaskExample> read = ExampleJsonl.read(file);
        if (!read.skipped().isEmpty()) {
            JsonLines.SkippedLine s = read.skipped().get(0);
            throw new UsageException(file + " line " + s.lineNumber() + ": " + s.reason()
                    + (read.skipped().size() > 1 ? " (and " + (read.skipped().size() - 1) + " more bad lines)" : ""));
        }
        return read.items();
    }

    private static TaskReward reward(String name) {
        return switch (name) {
            case "exact" -> AnswerReward.exact();
            case "mentions" -> AnswerReward.mentions();
            case "numeric" -> AnswerReward.numeric(0.01);
            default -> throw new UsageException("--reward must be exact, mentions or numeric, got '" + name + "'");
        };
    }

    private static Map<String, Object> summary(DistillReport report) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("collected", report.collected());
        s.put("from_cache", report.fromCache());
        s.put("kept", report.keptCount());
        s.put("skipped", report.skipped());
        s.put("trained_tokens", report.trainedTokens());
        s.put("cache_file", report.cacheFile() == null ? null : report.cacheFile().toString());
        return s;
    }
}
