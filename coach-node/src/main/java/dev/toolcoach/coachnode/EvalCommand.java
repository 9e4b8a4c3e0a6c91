package dev.toolcoach.coachnode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.brain.Brain;
import dev.toolcoach.brain.BrainBuilder;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.run.ConsoleProgress;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.taskjob.EvalRecord;
import dev.toolcoach.brain.taskjob.RewardChoice;
import dev.toolcoach.brain.taskjob.ToolChoice;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.trace.UntrustedJson;
import dev.toolcoach.trace.tooluse.ContextKey;
import dev.toolcoach.trace.tooluse.ToolUse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code eval}: a saved adapter on a task's test split (the split {@code train} used with the same seed), greedily,
 * scored by the task's reward. The base model and the recipe (agent format and limits) default to the run folder
 * the adapter was saved in. Prints the evaluation as JSON.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = "Evaluate a saved adapter on a task's test split; prints accuracy and mean reward as JSON.")
public final class EvalCommand implements Callable<Integer> {

    @Mixin
    DeviceOption device;

    @Mixin
    TaskOptions taskOptions;

    @Mixin
    ToolChoiceOptions toolOptions;

    @Option(names = "--adapter", required = true, description = "a PEFT adapter folder (a run's adapter/)")
    Path adapter;

    @Option(names = "--model", description = "the base model folder (default: distilled/, else init/, beside the adapter)")
    Path model;

    @Option(names = "--skills", description = "a skill folder (coach-node skills): its approved composites join the task's suite")
    Path skills;

    @Option(names = "--tool-use", description = "also append the evaluation's tool-use records (TILE) to this JSON Lines file")
    Path toolUse;

    @Option(names = "--adapt", description = "turn TILE's ADAPT on with these settings (JSON: equivalent tools, prior); "
            + "preferences are kept in the run folder's tile_preferences.json")
    Path adapt;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try {
            Path run = adapter.toAbsolutePath().getParent();
            JsonNode config = readConfig(run.resolve("config.json"));
            ScratchRecipe recipe = config == null ? ScratchRecipe.defaults()
                    : new ObjectMapper().treeToValue(config.get("recipe"), ScratchRecipe.class);
            long splitSeed = taskOptions.seedOr(config == null ? 1L : config.get("seed").asLong());
            JsonNode runModel = config == null ? null : config.get("model");
            Path base = model != null ? model : TaskTrainingJob.baseModel(run, runModel == null ? null : Path.of(runModel.asText()));
            JsonNode runFormat = config == null ? null : config.get("action_format");
            ActionFormat format = runFormat != null ? ActionFormat.named(runFormat.asText()) : recipe.greedyAgent().actionFormat();
            ToolChoice tools = toolOptions.choice();
            JsonNode runDataset = config == null ? null : config.path("dataset").get("file");
            JsonNode runTest = config == null ? null : config.path("test_dataset").get("file");
            boolean datasetTask = taskOptions.task == null && config != null && config.path("task_source").asText().equals("dataset");
            String task = taskOptions.task != null || datasetTask || config == null || !config.hasNonNull("task") ? taskOptions.task
                    : config.get("task").asText();
            if (task == null && !datasetTask) taskOptions.requiredTask();
            JsonNode runReward = config == null ? null : config.get("reward");
            RewardChoice reward = runReward == null ? RewardChoice.task() : new RewardChoice(runReward.asText());
            TrainingJobSpec options = TrainingJobSpec.builder().task(task)
                    .dataset(datasetTask && runDataset != null ? Path.of(runDataset.asText()) : null)
                    .testDataset(datasetTask && runTest != null ? Path.of(runTest.asText()) : null)
                    .dataDir(taskOptions.dataDir).runDir(run).recipe(recipe).athletes(1).seed(splitSeed).checkpointEvery(1).tools(tools)
                    .model(base).reward(reward).endpoints(EndpointOptions.rewardServer(reward.url().orElse(null))).device(device.value()).build();
            TaskTrainingJob.TaskSplit taskSplit = TaskTrainingJob.taskSplit(options);
            Task t = taskSplit.task();
            TraceReward scored = options.evaluationReward(t, format);
            BuiltinSuites.Options suiteOptions = TaskTrainingJob.toolOptions(taskOptions.dataDir);
            BrainBuilder builder = Brain.builder().model(base).actionFormat(format).toolOptions(suiteOptions)
                    .distractorTools(TaskTrainingJob.distractors(tools, taskOptions.dataDir, suiteOptions))
                    .reward(Reward.perTrace(t.name(), scored))
                    .config(options.trainingConfig())
                    .progress(new ConsoleProgress(t.name(), System.err, ConsoleProgress.onTerminal()))
                    .workDir(run);
            if (t.toolSuites().isEmpty()) builder.exampleToolsOnly();
            else builder.tool(t.toolSuites().get(0));
            if (adapt != null) builder.adapt(AdaptSettings.read(adapt), ContextKey.task(t.name()));
            if (skills != null) {
                if (!Files.isDirectory(skills)) throw new IllegalArgumentException("--skills: " + skills + " is not a folder");
                builder.skills(skills);
            }
            Brain brain = builder.build();
            brain.loadAdapter(adapter);
            try (ModelEndpoint.Open selector = tools.model() == null ? null
                    : tools.model().open(EndpointOptions.named(toolOptions.url), "--retrieval-url", device.value())) {
                tools.retrieval().ifPresent(r -> brain.enableToolRetrieval(r.mode().label(), r.k(), selector == null ? null : selector.client()));
                EvaluationReport report = brain.evaluate(taskSplit.split().test(), scored);
                if (toolUse != null) ToolUse.append(toolUse, report.toolUse(TaskTrainingJob.evalRunId(run, "eval"), t.name()));
                EvalRecord record = EvalRecord.of(report);
                return CommandOutput.summary(spec, record);
            }
        } catch (JsonProcessingException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, "the run's config.json: " + UntrustedJson.reason(e));
        } catch (IllegalArgumentException | ModelLoadException | IOException e) {
            return CommandOutput.error(spec, CommandOutput.INPUT_ERROR, e.getMessage());
        }
    }

    private static JsonNode readConfig(Path file) throws IOException {
        return Files.isRegularFile(file) ? new ObjectMapper().readTree(file.toFile()) : null;
    }
}
