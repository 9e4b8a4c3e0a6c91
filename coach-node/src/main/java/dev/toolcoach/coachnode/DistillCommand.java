package dev.toolcoach.coachnode;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.RolloutSettings;
import dev.toolcoach.brain.Brain;
import dev.toolcoach.brain.BrainBuilder;
import dev.toolcoach.brain.run.ConsoleProgress;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.dataset.ExampleJsonl;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.TeacherFactory;
import dev.toolcoach.brain.distill.TeacherUnavailableException;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.AnswerReward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tasks.datasets.DatasetException;
import dev.toolcoach.trace.JsonLines;
import dev.toolcoach.trace.TraceJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code distill}: {@link Brain#distill} from the command line. A teacher — an OpenAI-compatible endpoint, a local
 * model folder (served on 127.0.0.1 while distilling) or the task's oracle — answers a task or a JSON Lines dataset
 * with the student's tools; its traces are cached in the work folder, those whose reward is above the threshold are
 * kept, and every weight of the student (a Hugging Face folder) is trained on them by SFT into
 * {@code <work-dir>/distilled}. Prints the counts as JSON. Bad input is one line on stderr, exit 2, nothing written.
 */
@Command(name = "distill", mixinStandardHelpOptions = true,
        description = "Distil a teacher (--teacher-url, --teacher-model or --oracle) into a student model folder: teacher traces "
                + "(cached), those with a reward above the threshold kept, the student trained on them by SFT.")
public final class DistillCommand implements Callable<Integer> {

    @Mixin
    DeviceOption device;

    @Mixin
    TaskOptions taskOptions;

    @Option(names = "--dataset", description = "instead of --task: a JSON Lines dataset (e.g. written by generate-tasks); needs --tools")
    Path dataset;

    @Option(names = "--tools", description = "built-in tool suite for --dataset")
    String suite;

    @Option(names = "--reward", defaultValue = "exact", description = "reward for --dataset: exact, mentions or numeric (default: ${DEFAULT-VALUE})")
    String reward;

    @Option(names = "--examples", description = "use only the first N examples")
    Integer limit;

    @Option(names = "--student", required = true, description = "the student: a Hugging Face model folder")
    Path student;

    @Option(names = "--teacher-url", description = "teacher: an OpenAI-compatible API root (the same as --base-url)")
    String teacherUrl;

    @Option(names = "--teacher-model", description = "teacher: a local Hugging Face model folder, served on 127.0.0.1 while distilling")
    Path teacherModel;

    @Option(names = "--oracle", description = "teacher: the examples' oracle solutions")
    boolean oracle;

    @Mixin
    EndpointOptions endpoint;

    @Option(names = "--work-dir", required = true, description = "where the teacher cache (teacher-cache/) and the distilled model (distilled/) go")
    Path workDir;

    @Option(names = "--threshold", defaultValue = "0.9", description = "keep traces with reward above this (default: ${DEFAULT-VALUE})")
    double threshold;

    @Option(names = "--max-turns", defaultValue = "8", description = "turn limit of each rollout (default: ${DEFAULT-VALUE})")
    int maxTurns;

    @Option(names = "--max-new-tokens", defaultValue = "512", description = "token limit of each reply (default: ${DEFAULT-VALUE})")
    int maxNewTokens;

    @Option(names = "--epochs", defaultValue = "3", description = "SFT passes over the kept traces (default: ${DEFAULT-VALUE})")
    int epochs;

    @Option(names = "--batch", defaultValue = "8", description = "kept traces per SFT step (default: ${DEFAULT-VALUE})")
    int batch;

    @Option(names = "--learning-rate", defaultValue = "1e-5", description = "SFT learning rate (default: ${DEFAULT-VALUE})")
    double learningRate;

    @Option(names = "--out", description = "also write the kept traces to this JSON Lines file")
    Path out;

    @Option(names = "--action-format", paramLabel = "NAME", description = "the tool-call format the student learns: "
            + "tool-n1, tool-n1-compact, hermes, llama3-json (default: the student family's native format when it has "
            + "its own chat template, else tool-n1)")
    String actionFormat;

    @Spec
    CommandSpec spec;

    private static ActionFormat namedFormat(String name) {
        try {
            return ActionFormat.named(name);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--action-format: " + e.getMessage());
        }
    }

    @Override
    public Integer call() {
        try {
            checkNumbers();
            TeacherChoice teacher = teacher();
            requireModelFolder("--student", student);
            Source source = source();
            if (teacher == TeacherChoice.ORACLE && source.data().examples().stream().anyMatch(e -> e.solution().isEmpty())) {
                throw new UsageException("the oracle teacher needs examples with solutions; " + source.data().id() + " has some without");
            }
            BrainBuilder builder = Brain.builder();
            if (actionFormat != null) builder.actionFormat(namedFormat(actionFormat));
            Brain brain = builder.model(student).tool(source.suite()).toolOptions(TaskTrainingJob.toolOptions(taskOptions.dataDir))
                    .reward(Reward.perTrace(source.data().id(), source.data().reward()))
                    .config(TrainingConfig.builder().device(device.value()).rollouts(new RolloutSettings(0, maxNewTokens, maxTurns, AgentConfig.defaults().maxTotalTokens()))
                            .seed(taskOptions.seedOr(1)).build())
                    .progress(new ConsoleProgress(source.data().id(), System.err, ConsoleProgress.onTerminal()))
                    .workDir(workDir).build();
            DistillReport report = brain.distill(source.data(), factory(teacher, source.data()), threshold, epochs, batch,
                    LearnerConfig.defaults(learningRate));
            if (out != null) {
                Files.deleteIfExists(out);
                TraceJson.append(out, report.kept().stream().map(ScoredTrace::trace).toList());
            }
            return CommandOutput.summary(spec, summary(report, brain.model(), brain.actionFormat()));
        } catch (UsageException | IllegalArgumentException | DatasetException | ModelLoadException | TeacherUnavailableException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
        } catch (UncheckedIOException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, e.getMessage());
        } catch (IOException e) {
            return CommandOutput.error(spec, CommandOutput.RUN_ERROR, "cannot write " + out + ": " + e.getMessage());
        }
    }

    private enum TeacherChoice { ENDPOINT, LOCAL_MODEL, ORACLE }

    /** Exactly one teacher option; an endpoint's URL may come as --teacher-url or --base-url, not both. */
    private TeacherChoice teacher() {
        if (teacherUrl != null && endpoint.baseUrl != null) {
            throw new UsageException("--teacher-url and --base-url name the same endpoint; give one");
        }
        if (teacherUrl != null) endpoint.baseUrl = teacherUrl;
        List<TeacherChoice> chosen = new ArrayList<>();
        if (endpoint.baseUrl != null) chosen.add(TeacherChoice.ENDPOINT);
        if (teacherModel != null) chosen.add(TeacherChoice.LOCAL_MODEL);
        if (oracle) chosen.add(TeacherChoice.ORACLE);
        if (chosen.size() != 1) {
            throw new UsageException((chosen.isEmpty() ? "no teacher" : "more than one teacher")
                    + ": give exactly one of --teacher-url URL, --teacher-model DIR, --oracle");
        }
        if (chosen.get(0) == TeacherChoice.LOCAL_MODEL) requireModelFolder("--teacher-model", teacherModel);
        return chosen.get(0);
    }

    private TeacherFactory factory(TeacherChoice choice, DistillDataset data) {
        return switch (choice) {
            case ENDPOINT -> TeacherFactory.endpoint(endpoint.config());
            case LOCAL_MODEL -> TeacherFactory.localModel(teacherModel, device.value());
            case ORACLE -> TeacherFactory.oracle(data.id());
        };
    }

    private static void requireModelFolder(String option, Path dir) {
        if (!Files.isRegularFile(dir.resolve("config.json"))) {
            throw new UsageException(option + " " + dir + " is not a model folder (no config.json)");
        }
    }

    private void checkNumbers() {
        if (maxTurns < 1 || maxNewTokens < 1 || epochs < 1 || batch < 1) {
            throw new UsageException("--max-turns, --max-new-tokens, --epochs and --batch must be >= 1");
        }
        if (!(learningRate > 0)) throw new UsageException("--learning-rate must be > 0, got " + learningRate);
    }

    /** The examples, their reward and the one tool suite they run on. */
    private record Source(DistillDataset data, String suite) {
    }

    private Source source() {
        if ((taskOptions.task == null) == (dataset == null)) throw new UsageException("give exactly one of --task NAME, --dataset FILE");
        if (taskOptions.task != null) {
            Task task = TaskRegistry.standard(taskOptions.dataDir, taskOptions.seedOr(1)).get(taskOptions.task);
            if (task.toolSuites().size() != 1) {
                throw new UsageException("task '" + task.name() + "' does not run on one tool suite; use --dataset with --tools");
            }
            return new Source(new DistillDataset(task.name(), first(task.examples()), task.reward()), task.toolSuites().get(0));
        }
        if (suite == null) throw new UsageException("--dataset needs --tools");
        return new Source(new DistillDataset(dataset.getFileName().toString(), first(readDataset(dataset)), reward(reward)), suite);
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

    private static TraceReward reward(String name) {
        return switch (name) {
            case "exact" -> AnswerReward.exact();
            case "mentions" -> AnswerReward.mentions();
            case "numeric" -> AnswerReward.numeric(0.01);
            default -> throw new UsageException("--reward must be exact, mentions or numeric, got '" + name + "'");
        };
    }

    private static Map<String, Object> summary(DistillReport report, Path distilled, ActionFormat format) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("action_format", format.formatName());
        s.put("collected", report.collected());
        s.put("from_cache", report.fromCache());
        s.put("kept", report.keptCount());
        s.put("skipped", report.skipped());
        s.put("trained_tokens", report.trainedTokens());
        s.put("cache_file", report.cacheFile() == null ? null : report.cacheFile().toString());
        s.put("distilled", distilled.toString());
        return s;
    }
}
