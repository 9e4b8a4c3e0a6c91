package dev.toolcoach.brain.taskjob;

import dev.toolcoach.model.Precision;
import dev.toolcoach.model.ComputeDevice;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.brain.Brain;
import dev.toolcoach.brain.BrainBuilder;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.endpoint.ModelEndpoint;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.run.RunFolderLock;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.brain.scratch.ScratchRecipe;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.retrieval.offer.Distractors;
import dev.toolcoach.tasks.Split;
import dev.toolcoach.tasks.Task;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TaskRegistry;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.trace.tooluse.ContextKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The main job: a task-sized model trained from scratch on a named task (or a user's model folder). This class checks the
 * job, writes {@code config.json}, builds the Brain, and runs the phases in order over their {@link JobRun}:
 * {@link ModelPhase}, {@link EvaluationPhase} before training, {@link WarmupPhase} (distillation from the task's oracle),
 * {@link EvaluationPhase} after it, {@link TrainPhase} (the chosen algorithm through the Brain, rewarded by the task reward
 * with partial credit for oracle-matching calls, {@link CallShapedReward}; then the adapter saved), {@link EvaluationPhase}
 * after training (on the task reward alone) and {@link ReportPhase}. Everything lands in the run folder:
 * {@code config.json}, {@code metrics.jsonl}, {@code traces.jsonl}, {@code tool_use.jsonl}, {@code checkpoints/},
 * {@code adapter/} (PEFT), {@code warmup.json}, {@code eval.json}, {@code times.json} and {@code reward_curve.png}.
 * Running it again on the same folder resumes: finished phases are skipped and training continues from its last
 * checkpoint.
 */
public final class TaskTrainingJob {
    private static final Logger LOG = LoggerFactory.getLogger(TaskTrainingJob.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
    /** The share of a task's examples held out for evaluation, up to the recipe's {@code testExamples}. */
    public static final double TEST_FRACTION = 0.2;
    /** pass@k is measured with this many samples of each query, k as many. */
    public static final int PASS_AT_K = 8;
    /** The request fields that name a helper model's endpoint (POST /jobs), for refusals. */
    static final String JUDGE_URL = "judge.endpoint.url";
    static final String SELECTOR_URL = "tool_retrieval.model.url";

    /**
     * What the job reached: the evaluations by phase, the training run's outcome (null when no training step was asked:
     * the warm-up alone) and, in plain words, whether training
     * helped and if not what the run's figures say about why ({@link TrainingVerdict}); where this session's wall time
     * went ({@code times}: phases a resumed job skipped are absent).
     */
    public record Summary(Path runDir, Map<String, EvalRecord> evaluations, TrainingRun.Result training, double wallSeconds,
                          List<String> verdict, PhaseTimes times) {
    }

    private TaskTrainingJob() {
    }

    /**
     * Checks what can be checked before anything runs: the task exists and runs on one tool suite, the
     * algorithm is known, a dataset given can be read and has a usable example.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static Task validate(TrainingJobSpec options) {
        return check(options).task();
    }

    /**
     * {@link #validate}, for a job a node's actors run (a cluster's, or the one-node cluster that hosts a suite): the
     * turn barrier runs only in the synchronous loop of an embedded job.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static Task validateOnNode(TrainingJobSpec options) {
        refuseOnNode(options);
        return validate(options);
    }

    private static void refuseOnNode(TrainingJobSpec options) {
        if (options.mode().turnBarrier()) {
            throw new IllegalArgumentException("mode turn-barrier runs in an embedded job (train --mode turn-barrier), "
                    + "not on a cluster's actors: use sync or async");
        }
    }

    /** A job's task and the split it trains and is evaluated on: what {@code eval} scores a run's adapter on again. */
    public record TaskSplit(Task task, Split split) {
    }

    /**
     * The job's task, checked as {@link #validate} does, and its split: the given test dataset's examples as the test split,
     * else the task's held-out share.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static TaskSplit taskSplit(TrainingJobSpec options) {
        Checked checked = check(options);
        return new TaskSplit(checked.task(), split(checked, options));
    }

    /**
     * The task and the dataset read while validating, so the job reads neither twice; {@code extraQueries} is the
     * dataset when it replaces a named task's training split, empty when there is none or it is the task.
     */
    private record Checked(Task task, Optional<JobDataset> dataset, Optional<JobDataset> extraQueries, Optional<JobDataset> test,
                           Optional<AdaptSettings> adapt, Optional<Config> hostedTools) {
    }

    /** The given test dataset's examples as the test split, the dataset's as the training ones; else the task's held-out share. */
    private static Split split(Checked checked, TrainingJobSpec options) {
        return checked.test().map(test -> new Split(checked.dataset().orElseThrow().examples(), test.examples()))
                .orElseGet(() -> split(checked.task(), options.seed(), options.recipe().evaluation().testExamples()));
    }

    private static Checked check(TrainingJobSpec options) {
        options.trainingConfig();
        options.tools().retrieval();
        if (options.judge() != null) options.judge().judgeMode();
        if (options.judge() != null && options.judge().endpoint().url() != null) {
            options.endpoints().check(JUDGE_URL, options.judge().endpoint().url());
        }
        if (options.tools().model() != null && options.tools().model().url() != null) {
            options.endpoints().check(SELECTOR_URL, options.tools().model().url());
        }
        ModelConfig modelConfig = options.recipe().shape().config(1); // a scratch model's: the vocabulary sizes no LoRA matrix
        if (options.model() != null) {
            try {
                // config, family, every weight's name, dtype and shape; no weight read
                modelConfig = HfModelFolder.locate(options.model()).config();
            } catch (ModelLoadException e) {
                throw new IllegalArgumentException("model: " + e.getMessage(), e);
            }
        }
        LoraConfig lora = options.recipe().grpo().lora();
        if (options.adapter() != null) {
            try {
                lora = PeftAdapterIo.load(options.adapter()).config(); // its tensors' shapes are checked against the model as it loads
            } catch (ModelLoadException e) {
                throw new IllegalArgumentException("adapter: " + e.getMessage(), e);
            }
        }
        lora.checkFits(modelConfig); // before anything is allocated: the adapter's memory is outside the Java heap
        int context = options.recipe().rollouts().maxTotalTokens();
        if (context > modelConfig.maxSeqLen()) { // a longer rollout would index past the model's positions in training
            throw new IllegalArgumentException("maxTotalTokens " + context + " exceeds the model's context of " + modelConfig.maxSeqLen()
                    + " positions: ask for at most that many");
        }
        Optional<JobDataset> dataset = dataset(options);
        Optional<JobDataset> test = Optional.ofNullable(options.testDataset()).map(f -> JobDataset.read(f, "test_"));
        Task task = options.task() == null ? dataset.map(d -> test.map(d::withTest).orElse(d)).orElseThrow().asTask()
                : TaskRegistry.standard(options.dataDir(), options.seed()).get(options.task());
        if (options.task() != null && dataset.isPresent() && dataset.get().layout() != JobDataset.Layout.TOOLCOACH) {
            throw new IllegalArgumentException("the dataset " + dataset.get().file() + " is in the " + dataset.get().layout().label()
                    + " layout, a task of its own with its gold calls: leave out the task");
        }
        options.reward().check(task, options.endpoints());
        if (task.toolSuites().isEmpty() && options.model() == null) {
            throw new IllegalArgumentException("task '" + task.name() + "' offers each example its own tools and trains a model "
                    + "you give: name a Hugging Face folder (--model DIR, or model in a request)");
        }
        if (task.toolSuites().isEmpty() && options.toolSuite() != null) {
            throw new IllegalArgumentException("task '" + task.name() + "' calls no tool suite: tool_suite has nothing to replace");
        }
        if (task.toolSuites().size() > 1) {
            throw new IllegalArgumentException("task '" + task.name() + "' needs " + task.toolSuites().size()
                    + " tool suites; the train command runs tasks on one built-in suite");
        }
        return new Checked(task, dataset, options.task() == null ? Optional.empty() : dataset, test,
                Optional.ofNullable(options.adapt()).map(AdaptSettings::read), Optional.ofNullable(options.toolsConfig()).map(f -> hostedTools(f, options)));
    }

    /**
     * The config of a one-node cluster that hosts the job's {@code tool_suite} as {@code file} defines it (and no built-in
     * suite), with the job's athletes.
     *
     * @throws IllegalArgumentException when the file cannot be read as HOCON or does not define the suite
     */
    private static Config hostedTools(Path file, TrainingJobSpec options) {
        Config tools;
        try {
            tools = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        } catch (ConfigException e) {
            throw new IllegalArgumentException("tools config: " + e.getMessage(), e);
        }
        String quoted = ConfigUtil.quoteString(options.toolSuite());
        if (!tools.hasPath("toolcoach.tools.classes." + quoted) && !tools.hasPath("toolcoach.tools.mcp.servers." + quoted)) {
            throw new IllegalArgumentException("tools config " + file + " defines no suite '" + options.toolSuite()
                    + "' (toolcoach.tools.classes or toolcoach.tools.mcp.servers)");
        }
        return ConfigFactory.parseMap(Map.of("toolcoach.jobs.controller", "off", "toolcoach.tools.suites", List.of(),
                "toolcoach.athlete.actors-per-node", options.athletes(), ComputeDevice.CONFIG_KEY, options.device().name(),
                Precision.CONFIG_KEY, options.device().precision().label())).withFallback(tools);
    }

    /**
     * Runs the job.
     *
     * @param node where training runs: empty for the embedded mode (a one-node cluster in this JVM), else
     *             a coach node whose cluster's athlete and tool nodes do the rollouts
     * @throws RunFolderLock.InUse when another job runs in the same run folder
     */
    public static Summary run(TrainingJobSpec options, Optional<JobNode> node, JobListener listener) {
        try (RunFolderLock lock = RunFolderLock.acquire(options.runDir())) {
            return run(options, node, listener, lock);
        }
    }

    /**
     * Runs the job in a run folder the caller has already locked (the job controller locks it before it accepts the
     * job); the caller releases the lock.
     *
     * @throws RunFolderLock.InUse never here: the caller holds the lock
     */
    public static Summary run(TrainingJobSpec options, Optional<JobNode> node, JobListener listener, RunFolderLock held) {
        Objects.requireNonNull(held, "held");
        long start = System.nanoTime();
        if (node.isPresent() || options.toolSuite() != null) refuseOnNode(options);
        Checked checked = check(options);
        if (options.toolSuite() != null && node.isEmpty()) {
            if (checked.hostedTools().isEmpty()) {
                throw new IllegalArgumentException("tool_suite '" + options.toolSuite() + "' is a suite the cluster's tool nodes host: "
                        + "submit the job to a coach node (POST /jobs, cluster.sh train --tool-suite), or host it in this process "
                        + "(--tools-conf FILE)");
            }
            // the embedded job on a one-node cluster of this process that hosts the suite as a tool node would
            try (JobNode local = JobNode.allRoles(checked.hostedTools().get())) {
                return run(options, checked, Optional.of(local), listener, start);
            }
        }
        return run(options, checked, node, listener, start);
    }

    /** The job's phases in order; each skips what an earlier session of a resumed job left done in the run folder. */
    private static Summary run(TrainingJobSpec options, Checked checked, Optional<JobNode> node, JobListener listener, long start) {
        Task task = checked.task();
        checked.dataset().filter(d -> !d.skipped().isEmpty()).ifPresent(d -> LOG.warn(d.skipSummary()));
        checked.test().filter(d -> !d.skipped().isEmpty()).ifPresent(d -> LOG.warn(d.skipSummary()));
        ScratchRecipe recipe = options.recipe();
        Path run = options.runDir();
        Split split = split(checked, options);
        try (HelperModels helpers = new HelperModels(options.judge(), options.tools().model(), options.endpoints(), options.device())) {
            Files.createDirectories(run);
            ActionFormat actionFormat = actionFormat(options.model(), recipe);
            writeJson(run.resolve("config.json"), settings(options, checked, split, actionFormat));
            Map<String, EvalRecord> evals = readEvals(run.resolve("eval.json"));
            boolean warmedUp = Files.exists(run.resolve("distilled").resolve("config.json"));
            Brain brain = brain(options, checked, actionFormat, helpers, node, listener);
            Optional<JobDataset> dataset = checked.extraQueries();
            List<TaskExample> trainingQueries = dataset.map(JobDataset::examples).orElseGet(() -> trainingQueries(split, recipe));
            // the first training queries, those the first steps sample: as many as the steps sample, at most the recipe's
            int sampled = (int) Math.min((long) recipe.grpo().steps() * recipe.grpo().groupsPerStep(), recipe.evaluation().passAtKQueries());
            List<TaskExample> passQueries = trainingQueries.subList(0, Math.min(sampled, trainingQueries.size()));
            JobRun job = new JobRun(options, task, split, brain, options.evaluationReward(task, actionFormat), trainingQueries,
                    passQueries, dataset.map(d -> d.withTaskExamples(task.examples())).orElse(task.examples()), evals,
                    new PhaseTimes(), listener, start);

            Path init = run.resolve("init");
            if (options.model() == null && !Files.exists(init.resolve("config.json"))) ModelPhase.run(job, init);
            if (!warmedUp && !evals.containsKey("before_training")) EvaluationPhase.run(job, "before_training", List.of());
            if (recipe.warmup().traces() > 0 && !warmedUp) WarmupPhase.run(job);
            if (recipe.warmup().traces() > 0 && !evals.containsKey("after_warmup")) {
                EvaluationPhase.run(job, "after_warmup", passQueries);
            }
            if (recipe.grpo().steps() == 0) return ReportPhase.warmupOnly(job);
            TrainingRun.Result result = TrainPhase.run(job);
            EvaluationPhase.run(job, "after_" + options.trainingConfig().algorithm().lowerName(), passQueries);
            return ReportPhase.trained(job, result);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run folder " + run + ": " + e.getMessage(), e);
        }
    }

    /** What {@code config.json} records: the resolved recipe and training settings, and what the job was given. */
    private static Map<String, Object> settings(TrainingJobSpec options, Checked checked, Split split, ActionFormat actionFormat) {
        TrainingConfig config = options.trainingConfig();
        Map<String, Object> settings = new LinkedHashMap<>(Map.of("task", checked.task().name(),
                "algorithm", config.algorithm().lowerName(), "mode", options.mode().label(), "seed", options.seed(),
                "recipe", options.recipe(), "training", config, "train_examples", split.train().size(),
                "test_examples", split.test().size()));
        if (options.toolReward() != null) settings.put("tool_reward", options.toolReward());
        if (options.adapt() != null) settings.put("adapt", options.adapt().toString());
        checked.dataset().ifPresent(d -> settings.put("dataset", d.record()));
        checked.test().ifPresent(d -> settings.put("test_dataset", d.record()));
        if (options.task() == null) settings.put("task_source", "dataset");
        if (!options.reward().isTask()) settings.put("reward", options.reward().name());
        if (!options.tools().equals(ToolChoice.none())) settings.put("tools", options.tools());
        if (options.judge() != null) settings.put("judge", options.judge());
        if (options.toolSuite() != null) settings.put("tool_suite", options.toolSuite());
        if (options.model() != null) settings.put("model", options.model().toString());
        if (options.adapter() != null) settings.put("adapter", options.adapter().toString());
        settings.put("action_format", actionFormat.formatName());
        return settings;
    }

    /** The Brain every phase acts through: the run's base model, the job's tools, rewards, settings and helpers. */
    private static Brain brain(TrainingJobSpec options, Checked checked, ActionFormat actionFormat, HelperModels helpers,
                               Optional<JobNode> node, JobListener listener) {
        Task task = checked.task();
        BuiltinSuites.Options toolOptions = toolOptions(options.dataDir());
        BrainBuilder builder = Brain.builder().model(baseModel(options.runDir(), options.model())).actionFormat(actionFormat)
                .toolOptions(toolOptions)
                .distractorTools(distractors(options.tools(), options.dataDir(), toolOptions))
                .reward(options.trainingReward(task, actionFormat))
                .config(options.trainingConfig()).workDir(options.runDir()).progress(listener.progress());
        if (options.judge() != null) builder.judgeReward(helpers.judge(), options.judge().mode() == null ? "ranking" : options.judge().mode());
        node.ifPresent(builder::onNode);
        if (options.toolSuite() != null) builder.hostedTool(options.toolSuite());
        else if (task.toolSuites().isEmpty()) builder.exampleToolsOnly();
        else builder.tool(task.toolSuites().get(0));
        checked.adapt().ifPresent(a -> builder.adapt(a, ContextKey.task(task.name())));
        Brain brain = builder.build();
        if (options.adapter() != null) brain.loadAdapter(options.adapter());
        options.tools().retrieval().ifPresent(r -> brain.enableToolRetrieval(r.mode().label(), r.k(), helpers.selector()));
        return brain;
    }

    /**
     * The base a run trains and evaluates: its warm-up's {@code distilled/} once written, else the user's folder
     * ({@code model}, null for none), else the task-sized model it built in {@code init/}.
     */
    public static Path baseModel(Path run, Path model) {
        Path distilled = run.resolve("distilled");
        return Files.exists(distilled.resolve("config.json")) ? distilled : model != null ? model : run.resolve("init");
    }

    /**
     * How the agent acts: a user's model with its own chat template in its family's native tool-call format (the template
     * taught it that format); a model without one (built from scratch, warmed up in the recipe's format) in the recipe's.
     */
    private static ActionFormat actionFormat(Path model, ScratchRecipe recipe) {
        return model != null && HfModelFolder.chatTemplate(model).isPresent() ? NativeActionFormat.forModel(model)
                : recipe.greedyAgent().actionFormat();
    }

    /** The task's test split: {@link #TEST_FRACTION} of its examples, at most {@code maxTest}. */
    public static Split split(Task task, long seed, int maxTest) {
        int n = task.examples().size();
        return Split.holdOut(task.examples(), (int) Math.min(maxTest, Math.round(TEST_FRACTION * n)), seed);
    }

    /** The warm-up's queries: the first of the training split, those it trains on and then those it holds out. */
    public static List<TaskExample> warmupQueries(Split split, ScratchRecipe recipe) {
        return split.train().subList(0, warmupSeen(split, recipe));
    }

    /** Without a warm-up (no traces) nothing is held out for it either. */
    private static int warmupSeen(Split split, ScratchRecipe recipe) {
        if (recipe.warmup().traces() == 0) return 0;
        return Math.min(recipe.warmup().traces() + recipe.warmup().heldOut(), split.train().size());
    }

    /**
     * The training queries: those the warm-up did not see, when there are any. Trained on the warm-up's own
     * queries, whose oracle answers the model has memorised, rollouts are nearly all right and nearly alike,
     * so groups carry no signal and what is learned does not transfer.
     */
    public static List<TaskExample> trainingQueries(Split split, ScratchRecipe recipe) {
        int seen = warmupSeen(split, recipe);
        return seen < split.train().size() ? split.train().subList(seen, split.train().size()) : split.train();
    }

    /**
     * The built-in suites' options with the shared data folder's mail (the email task's Enron mailboxes) and tabular
     * datasets (the hpo task's).
     */
    public static BuiltinSuites.Options toolOptions(Path dataDir) {
        return BuiltinSuites.Options.defaults()
                .withMailboxes(List.of(dataDir.resolve("enron/maildir"), dataDir.resolve("enron/emails_sample.csv")))
                .withHpoData(dataDir.resolve("hpo"));
    }

    /** The distractor tools {@code choice} names (other suites, BFCL schema files relative to {@code dataDir}). */
    public static List<ToolSpec> distractors(ToolChoice choice, Path dataDir, BuiltinSuites.Options toolOptions) {
        return Distractors.load(choice.distractorSuites(), choice.schemaFiles(dataDir), toolOptions);
    }

    /** The judge and the tool selector a job asks, opened (a local folder served) for the job and closed after it. */
    private static final class HelperModels implements AutoCloseable {
        private final ModelEndpoint.Open judge;
        private final ModelEndpoint.Open selector;

        HelperModels(JudgeChoice judge, ModelEndpoint selector, OutboundEndpoints allowed, ComputeDevice device) {
            this.judge = judge == null ? null : judge.endpoint().open(allowed, JUDGE_URL, device);
            this.selector = selector == null ? null : selector.open(allowed, SELECTOR_URL, device);
        }

        OpenAiClient judge() {
            return judge.client();
        }

        OpenAiClient selector() {
            return selector == null ? null : selector.client();
        }

        @Override
        public void close() {
            try {
                if (judge != null) judge.close();
            } finally {
                if (selector != null) selector.close();
            }
        }
    }

    private static Optional<JobDataset> dataset(TrainingJobSpec options) {
        return Optional.ofNullable(options.dataset()).map(JobDataset::read);
    }

    /** The run id of an evaluation's tool-use records: the run folder's name, then {@code /eval/<phase>}. */
    public static String evalRunId(Path run, String phase) {
        return run.toAbsolutePath().getFileName() + "/eval/" + phase;
    }

    static Map<String, EvalRecord> readEvals(Path file) throws IOException {
        if (!Files.exists(file)) return new LinkedHashMap<>();
        return new LinkedHashMap<>(JSON.readValue(file.toFile(), new TypeReference<Map<String, EvalRecord>>() { }));
    }

    static void writeJson(Path file, Object value) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        JSON.writeValue(tmp.toFile(), value);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
