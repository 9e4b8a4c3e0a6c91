package dev.toolcoach.coachnode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.brain.taskjob.EvalRecord;
import dev.toolcoach.brain.taskjob.RewardChoice;
import dev.toolcoach.brain.taskjob.ToolChoice;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TrainingMode;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.brain.taskjob.OracleRouteTable;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.brain.taskjob.TerminalListener;
import dev.toolcoach.brain.run.RunFolderLock;
import dev.toolcoach.brain.run.TrainingFailedException;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.rewards.ToolUseReward;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.trace.UntrustedJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code train}: the main job, embedded — a task-sized model trained from scratch on a registered task
 * (warm-up by distillation from the task's oracle, then GRPO, DPO or SFT through the coach, athletes and
 * learner on a one-node cluster in this JVM, or in {@code --mode sync} through the synchronous loop), or with
 * {@code --model} a LoRA adapter over a user's model folder.
 * Progress on stderr; the final table on stdout.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a task-sized model from scratch on a task (warm-up from the task's oracle, then RL), or a LoRA "
                + "adapter over your model folder (--model), embedded.")
public final class TrainCommand implements Callable<Integer> {

    @Mixin
    DeviceOption device;

    @Mixin
    TaskOptions taskOptions;

    @Mixin
    ToolChoiceOptions toolOptions;

    @Mixin
    JudgeOptions judgeOptions;

    @Option(names = "--algorithm", description = "grpo, dpo or sft (default: grpo)")
    String algorithm;

    @Option(names = "--mode", description = "async (rollouts go on while the learner trains), sync (roll out a batch, "
            + "train, repeat; one loop) or turn-barrier (sync with each turn of a batch in lockstep, to measure what "
            + "asynchrony buys) (default: async)")
    String mode;

    @Option(names = "--model", description = "a Hugging Face model folder (Qwen2.5, Qwen3, Llama 3.x, Mistral, Phi, or a run's "
            + "distilled/) to train a LoRA adapter over, instead of a task-sized model built from scratch; no warm-up unless "
            + "--warmup-traces asks for one")
    Path model;

    @Option(names = "--adapter", description = "a PEFT adapter over --model to continue training (its LoRA settings are kept); "
            + "the first evaluation scores the model with it")
    Path adapter;

    @Option(names = "--steps", description = "learner steps after the warm-up, 0 for the warm-up alone (default: the recipe's)")
    Integer steps;

    @Option(names = "--warmup-traces", description = "oracle traces of the distillation warm-up, 0 for none (default: the recipe's)")
    Integer warmupTraces;

    @Option(names = "--athletes", description = "athlete actors (default: all of a step's rollouts at once)")
    Integer athletes;

    @Option(names = "--checkpoint-every", description = "steps between checkpoints (default: 5)")
    Integer checkpointEvery;

    @Option(names = "--recipe", description = "a JSON file of recipe fields (model shape, warm-up, training settings, as in a run's "
            + "config.json): those it names replace the built-in recipe's")
    Path recipeFile;

    @Option(names = "--action-format", description = "how the agent acts: tool-n1-compact, tool-n1 or code-act (Python programs "
            + "calling the tools, run in the athletes' sandbox) (default: the recipe's actionFormat, else tool-n1-compact)")
    String actionFormat;

    @Option(names = "--name", description = "run name; an existing run of that name resumes (default: <task>-<date>-<time>)")
    String name;

    @Option(names = "--dataset", description = "a file of examples: ToolCoach JSON Lines (id, query or messages, tools, gold_answer, "
            + "gold_calls, metadata), an xLAM array ({query, tools, answers}) or a ShareGPT/Glaive array ({conversations, tools}). "
            + "With --task, JSON Lines to train on instead of its training split; without, the task itself (a fifth held out "
            + "for its test). Bad records are skipped and counted")
    Path dataset;

    @Option(names = "--test-dataset", description = "a file of test examples (any --dataset layout) for a --dataset that is the "
            + "task: they are its test split, and every example of --dataset is trained on (default: a fifth of --dataset held out)")
    Path testDataset;

    @Option(names = "--reward", description = "what training optimises and evaluation counts: task (the task's own), call-match "
            + "(Tool-N1: well-formed calls matching the gold ones), exact, mentions, numeric[:TOLERANCE] (the final answer), "
            + "the http(s) URL of a reward server (a group's rollouts in, one score each out; see docs/RECIPE.md), or a "
            + "RewardProvider's name on the classpath (default: the task's own)")
    String reward;

    @Option(names = "--tool-suite", description = "the suite --tools-conf defines (an MCP server, a tool class) that serves the "
            + "task's tools instead of its built-in suite; its tools must take the task's oracle calls")
    String toolSuite;

    @Option(names = "--tools-conf", description = "a HOCON file of tool suites this process hosts, as a tool node's "
            + "toolcoach.tools section: classes { NAME = \"com.acme.MyTools\" }, mcp.servers.NAME { command, args } or { url }")
    Path toolsConf;

        @Option(names = "--runs", defaultValue = "runs", description = "folder of the runs (default: ${DEFAULT-VALUE})")
    Path runs;

    @Option(names = "--crystallize", description = "after training, mine the run's successful traces into composite tools "
            + "(CRYSTALLIZE, calls of at least 3 in at least 3 traces), validated, into <run>/skills, pending approval "
            + "(coach-node skills list/approve)")
    boolean crystallize;

    @Option(names = "--adapt", description = "turn TILE's ADAPT on (training rollouts and evaluations) with these settings "
            + "(JSON: equivalent tools, prior); the athletes' preferences replicate across nodes")
    Path adapt;

    @Option(names = "--tool-reward", description = "train on TILE's composite reward α·success + β·(1/calls) + γ·task reward "
            + "− δ·retries, given as α,β,γ,δ (e.g. 0.2,0.1,1,0.05), instead of the task reward with oracle-call credit")
    String toolReward;

    @Option(names = "--spec", description = "a JSON file of the job, as the body of POST /jobs (task, name, algorithm, steps, "
            + "recipe, dataset, model, reward, ...; see modules/brain/API.md): flags given on the command line replace its values")
    Path spec;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        try {
            TrainingJobSpec.Builder job = spec == null ? TrainingJobSpec.builder() : TrainingJobSpec.read(spec).toBuilder();
            // each flag given is read into its type here and replaces the spec file's value; one not given keeps it
            if (taskOptions.task != null) job.task(taskOptions.task);
            if (taskOptions.seed != null) job.seed(taskOptions.seed);
            if (spec == null || given("--data-dir")) job.dataDir(taskOptions.dataDir);
            if (spec == null || name != null || given("--runs")) job.runDir(null).runsDir(runs).name(name);
            if (algorithm != null) job.algorithm(Algorithm.parse(algorithm));
            if (mode != null) job.mode(TrainingMode.parse(mode));
            if (recipeFile != null || actionFormat != null) job.recipe(recipe());
            job.steps(steps).warmupTraces(warmupTraces);
            if (athletes != null) job.athletes(athletes);
            if (checkpointEvery != null) job.checkpointEvery(checkpointEvery);
            if (dataset != null) job.dataset(dataset);
            if (testDataset != null) job.testDataset(testDataset);
            if (model != null) job.model(model);
            if (adapter != null) job.adapter(adapter);
            if (!toolOptions.choice().equals(ToolChoice.none())) job.tools(toolOptions.choice());
            if (judgeOptions.choice() != null) job.judge(judgeOptions.choice());
            if (reward != null) job.reward(new RewardChoice(reward));
            if (toolSuite != null) job.toolSuite(toolSuite);
            job.endpoints(EndpointOptions.named(toolOptions.url, judgeOptions.url).and(EndpointOptions.rewardServer(rewardUrl())))
                    .adapt(adapt).toolsConfig(toolsConf).device(device.value());
            if (toolReward != null) job.toolReward(ToolUseReward.Weights.parse(toolReward));
            TrainingJobSpec options = job.build();
            Task task = TaskTrainingJob.validate(options);
            if (crystallize && task.toolSuites().isEmpty()) {
                throw new IllegalArgumentException("--crystallize mines calls of a built-in suite; task '" + task.name() + "' calls none");
            }
            TaskTrainingJob.Summary summary = TaskTrainingJob.run(options, Optional.empty(),
                    new TerminalListener(task.name(), System.err));
            printTable(command.commandLine().getOut(), summary);
            if (crystallize) {
                SkillsCommand.crystallizeRun(summary.runDir(), task.toolSuites().get(0), options.dataDir(), options.recipe().greedyAgent(),
                        command.commandLine().getOut());
            }
            return 0;
        } catch (IllegalArgumentException e) {
            return CommandOutput.error(command, CommandOutput.INPUT_ERROR, e.getMessage());
        } catch (TrainingFailedException | RunFolderLock.InUse | UncheckedIOException e) {
            return CommandOutput.error(command, CommandOutput.RUN_ERROR, e.getMessage());
        }
    }

    private boolean given(String option) {
        return command.commandLine().getParseResult().hasMatchedOption(option);
    }

    /** The reward server's URL, which the user typed and so may call. */
    private String rewardUrl() {
        return reward != null && reward.trim().toLowerCase(Locale.ROOT).matches("https?://.*") ? reward.trim() : null;
    }

    /** The recipe file's (or the default) with the format asked for. */
    private ScratchRecipe recipe() {
        ScratchRecipe recipe = recipeFile == null ? null : readRecipe(recipeFile);
        if (actionFormat == null) return recipe;
        ActionFormat format;
        try {
            format = ScratchRecipe.actionFormat(actionFormat);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--action-format: " + e.getMessage(), e);
        }
        return (recipe == null ? ScratchRecipe.defaults() : recipe).withActionFormat(format);
    }

    private static ScratchRecipe readRecipe(Path file) {
        try {
            JsonNode fields = new ObjectMapper().readTree(file.toFile());
            if (fields == null || !fields.isObject()) throw new IllegalArgumentException("cannot read the recipe " + file + ": a recipe must be a JSON object");
            return ScratchRecipe.overDefaults(fields);
        } catch (JsonProcessingException e) {
            // one line naming the field or place, never Jackson's own text (Java types, the file's content)
            throw new IllegalArgumentException("cannot read the recipe " + file + ": " + UntrustedJson.reason(e), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the recipe " + file + ": " + e.getMessage(), e);
        }
    }

    private static void printTable(PrintWriter out, TaskTrainingJob.Summary summary) {
        out.printf(Locale.ROOT, "%-18s %9s %15s %12s %13s%n", "evaluation", "accuracy", "95% CI", "mean reward", "train pass@8");
        for (Map.Entry<String, EvalRecord> e : summary.evaluations().entrySet()) {
            EvalRecord r = e.getValue();
            out.printf(Locale.ROOT, "%-18s %8.1f%% %6.1f-%5.1f%% %12.3f %13s%n", e.getKey(), 100 * r.accuracy(),
                    100 * r.accuracyCi95().get(0), 100 * r.accuracyCi95().get(1), r.meanReward(),
                    r.training() == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * r.training().passAtK()));
        }
        OracleRouteTable.lines(summary.evaluations()).forEach(out::println);
        if (summary.training() == null) {
            out.printf(Locale.ROOT, "no training steps asked (--steps 0); the warmed-up model: %s; %.0f s%n",
                    summary.runDir().resolve("distilled"), summary.wallSeconds());
            out.printf(Locale.ROOT, "wall time: %s%n", summary.times().describe(summary.wallSeconds()));
            out.flush();
            return;
        }
        var a = summary.training().accounts();
        out.printf(Locale.ROOT, "groups trained %d, skipped %d, dropped %d (stale %d); adapter version %d; %.0f s; run %s%n",
                a.trained(), a.withoutSignal(), a.dropped().total() - a.dropped().get(GroupDropped.Reason.NO_SIGNAL),
                a.dropped().get(GroupDropped.Reason.STALE_POLICY), summary.training().adapter().version(), summary.wallSeconds(),
                summary.runDir());
        out.printf(Locale.ROOT, "wall time: %s%n", summary.times().describe(summary.wallSeconds()));
        summary.verdict().forEach(out::println);
        out.flush();
    }
}
