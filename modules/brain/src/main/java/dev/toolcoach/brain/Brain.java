package dev.toolcoach.brain;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.agent.adapt.AdaptiveToolEnvironment;
import dev.toolcoach.agent.adapt.PreferenceFile;
import dev.toolcoach.agent.adapt.ToolPreferences;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.DistillSettings;
import dev.toolcoach.brain.distill.Distiller;
import dev.toolcoach.brain.distill.LearnerSft;
import dev.toolcoach.brain.distill.Student;
import dev.toolcoach.brain.distill.Teacher;
import dev.toolcoach.brain.distill.TeacherFactory;
import dev.toolcoach.brain.distill.TraceCache;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.eval.PassAtK;
import dev.toolcoach.brain.eval.TaskEvaluation;
import dev.toolcoach.brain.run.ModelFolders;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.brain.zerolearn.ZeroLearn;
import dev.toolcoach.brain.zerolearn.ZeroLearnResult;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.learn.core.FullWeights;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.rewards.GroupReward;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.rewards.judge.JudgeMode;
import dev.toolcoach.rewards.judge.JudgeSettings;
import dev.toolcoach.rewards.judge.RankingJudge;
import dev.toolcoach.retrieval.offer.QueryTools;
import dev.toolcoach.retrieval.offer.RetrievalMode;
import dev.toolcoach.retrieval.offer.ToolRetrievalSettings;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.cluster.protocol.JobProtocol.AdaptSpec;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.cluster.tools.ClusterToolEnvironment;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.tools.skills.SkillLibrary;
import dev.toolcoach.trace.Trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * ToolCoach's one-object interface: an agent (a model, its tools, its action format), a reward, an
 * algorithm and a config; then {@link #train}, {@link #evaluate}, {@link #save}, and the coaching
 * strategies {@link #distill} and {@link #generateTrainingExamples}. Training runs the same actors as a
 * multi-node job — coach, athletes, tool servers, learner — on a one-node cluster in this JVM.
 *
 * <pre>{@code
 * Task task = TaskRegistry.standard(Path.of("../shared/data"), 1).get("finance");
 * Split split = task.split(0.2, 1);
 * Brain brain = Brain.builder()
 *         .model(Path.of("runs/demo/base"))                        // a Hugging Face model folder
 *         .tool(task.toolSuites().get(0))                          // a built-in tool suite
 *         .traceReward("answer", (trace, example) -> ...)          // or .groupReward(...), or .reward(Reward)
 *         .algorithm("grpo")
 *         .config(TrainingConfig.defaults())
 *         .workDir(Path.of("runs/demo"))
 *         .build();
 * brain.train(split.train(), 30);
 * System.out.println(brain.evaluate(split.test(), task.reward()).accuracy());
 * brain.save(Path.of("runs/demo/adapter"));                        // PEFT format
 * }</pre>
 *
 * <p>With {@link Builder#distractorTools} the agent's catalogue grows beyond its suite; {@link #enableToolRetrieval}
 * then offers each query only the tools a retriever chooses (ToolBrain's {@code enable_tool_retrieval=True}).
 */
public final class Brain {

    private Path modelDir;
    /** The chosen format, or the model's native one once it has been looked up (see {@link #actionFormat()}). */
    private ActionFormat actionFormat;
    private final List<String> suites;
    /** Whether the suite is the cluster's (a tool node hosts it, e.g. an MCP server) rather than a built-in one. */
    private final boolean hostedSuite;
    private final BuiltinSuites.Options toolOptions;
    private final Reward reward;
    private final TrainingConfig config;
    private final Path workDir;
    private final JobNode node;
    private final List<ToolSpec> distractors;
    private Optional<ToolRetrievalSettings> retrieval = Optional.empty();
    private OpenAiClient retrievalModel;
    private final Progress progress;
    private AdapterWeights adapter;
    private final AdaptSettings adapt;
    private final String adaptContext;
    private ToolPreferences preferences;

    private Brain(Builder b) {
        this.modelDir = Objects.requireNonNull(b.modelDir, "a Brain needs a model: call model(dir)");
        this.actionFormat = b.actionFormat;
        this.suites = List.copyOf(b.suites);
        this.hostedSuite = b.hostedSuite;
        this.toolOptions = b.skills == null ? b.toolOptions : b.toolOptions.withSkills(b.skills);
        this.reward = Objects.requireNonNull(b.reward, "a Brain needs a reward: call reward, traceReward or groupReward");
        this.config = b.config.withAlgorithm(b.algorithm == null ? b.config.algorithm() : b.algorithm);
        this.workDir = Objects.requireNonNull(b.workDir, "a Brain needs a work folder: call workDir(dir)");
        this.node = b.node;
        this.distractors = List.copyOf(b.distractors);
        this.progress = b.progress;
        this.adapt = b.adapt;
        this.adaptContext = b.adaptContext;
        if (suites.size() != 1) {
            throw new IllegalArgumentException("a Brain's agent uses exactly one tool suite, got " + suites);
        }
        if (hostedSuite && node == null) {
            throw new IllegalArgumentException("tool suite '" + suites.get(0) + "' is hosted by the cluster's tool nodes: "
                    + "the Brain needs its node (onNode)");
        }
        if (hostedSuite && b.skills != null) {
            throw new IllegalArgumentException("skills join built-in suites only, not the cluster's suite '" + suites.get(0) + "'");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * From now on each query is offered only the {@code k} tools the retriever chooses from the catalogue (the suite's
     * tools and the {@linkplain Builder#distractorTools distractors}), in training and in evaluation; which tools a
     * rollout was offered is in its trace ({@code offered_tools}).
     *
     * @param mode {@code lexical} (BM25; the {@code llm} and {@code hybrid} modes need a model: use the other overload)
     */
    public synchronized Brain enableToolRetrieval(String mode, int k) {
        return enableToolRetrieval(mode, k, null);
    }

    /** As {@link #enableToolRetrieval(String, int)}; {@code selector} is the model the {@code llm} and {@code hybrid} modes ask. */
    public synchronized Brain enableToolRetrieval(String mode, int k, OpenAiClient selector) {
        ToolRetrievalSettings settings = ToolRetrievalSettings.of(RetrievalMode.parse(mode), k);
        if (settings.mode().needsModel() && selector == null) {
            throw new IllegalArgumentException("tool retrieval '" + settings.mode().label() + "' asks a model: pass its client");
        }
        this.retrieval = Optional.of(settings);
        this.retrievalModel = selector;
        return this;
    }

    /** Every query is offered the whole catalogue again. */
    public synchronized Brain disableToolRetrieval() {
        this.retrieval = Optional.empty();
        this.retrievalModel = null;
        return this;
    }

    /**
     * The examples as the agent gets them: unchanged when the catalogue is the suite alone and retrieval is off, else
     * each offering the tools chosen for its query (the whole catalogue without retrieval).
     */
    public synchronized List<TaskExample> offeredTools(List<TaskExample> examples) {
        if (distractors.isEmpty() && retrieval.isEmpty()) return examples;
        List<ToolSpec> catalogue = new ArrayList<>(tools());
        catalogue.addAll(distractors);
        try (QueryTools offer = new QueryTools(catalogue, retrieval, Optional.ofNullable(retrievalModel))) {
            return offer.offer(examples);
        }
    }

    /**
     * Trains until the job has taken {@code steps} learner steps over {@code dataset} (walked in order and
     * wrapped). A second call continues the same job from its last checkpoint in the work folder.
     */
    public TrainingRun.Result train(List<TaskExample> dataset, int steps) {
        return train(dataset, steps, report -> { }, "brain-" + UUID.randomUUID());
    }

    /**
     * As {@link #train(List, int)}, telling {@code onStep} of every learner step (on the learner's thread).
     *
     * @param jobId names this run of the job on the cluster; unique per call
     */
    public TrainingRun.Result train(List<TaskExample> dataset, int steps, Consumer<StepReport> onStep, String jobId) {
        TrainingRun.Spec spec = new TrainingRun.Spec(config, modelDir, actionFormat(), suites, toolOptions, offeredTools(dataset), steps, reward,
                workDir.resolve("checkpoints"), jobId, adapt == null ? null : checkedAdaptSpec());
        TrainingRun.Result result = node == null ? TrainingRun.runEmbedded(spec, onStep) : TrainingRun.run(spec, node, onStep);
        adapter = result.adapter();
        return result;
    }

    /** Each example once, greedily, with the trained adapter (the base model before any training), scored by {@code score}. */
    public EvaluationReport evaluate(List<TaskExample> examples, TraceReward score) {
        return withEvaluation(examples.size(), score, evaluation -> {
            try (Progress.Meter meter = progress.start("evaluate", examples.size(), "examples")) {
                return evaluation.evaluate(offeredTools(examples), meter);
            }
        });
    }

    /**
     * pass@k of the policy as training samples it (the rollouts' temperature, the job's seed): {@code samples} rollouts
     * of each example with the trained adapter (the base model before any training), scored by {@code score}.
     */
    public PassAtK passAtK(List<TaskExample> examples, TraceReward score, int samples, int k) {
        return withEvaluation(examples.size() * samples, score, evaluation -> evaluation.passAtK(offeredTools(examples), samples, k));
    }

    private <T> T withEvaluation(int rollouts, TraceReward score, java.util.function.Function<TaskEvaluation, T> run) {
        try (LocalPolicy policy = LocalPolicy.load(modelDir, null, null, Math.max(1, Math.min(rollouts, 64)));
             OpenTools tools = openTools()) {
            if (adapter != null) {
                policy.engine().setAdapter(adapter);
                policy.engine().whenAdapterAtLeast(adapter.version()).join();
            }
            ToolEnvironment agentTools = adapt == null ? tools
                    : AdaptiveToolEnvironment.of(tools, toolPreferences(tools), adapt, adaptContext, config.seed());
            T result = run.apply(new TaskEvaluation(policy.tokenizer(), policy.chatFormat(), policy.generator(), agentTools,
                    config.rollouts().samplingAgent(actionFormat(), config.seed()), score));
            if (adapt != null) PreferenceFile.write(workDir.resolve(PREFERENCES_FILE), preferences);
            return result;
        }
    }

    /**
     * ADAPT for the training job's athletes, its groups checked here against the suite's tools (an unknown tool is an
     * error before any node sees the job); athletes sample from their node's replicated preferences ({@code toolcoach.tile}).
     */
    private AdaptSpec checkedAdaptSpec() {
        try (OpenTools tools = openTools()) {
            adapt.checkKnown(tools.specs().stream().map(ToolSpec::name).toList());
        }
        return new AdaptSpec(adaptContext, adapt.equivalent().groups(), adapt.hint());
    }

    /** The file in the work folder ADAPT's preferences are kept in between sessions (see {@link Builder#adapt}). */
    public static final String PREFERENCES_FILE = "tile_preferences.json";

    /**
     * ADAPT's tool preferences (empty before the first evaluation with ADAPT on): restored from the work folder's
     * {@value #PREFERENCES_FILE}, checked against the suite's tools, on first use.
     */
    public synchronized Optional<ToolPreferences> toolPreferences() {
        return Optional.ofNullable(preferences);
    }

    private synchronized ToolPreferences toolPreferences(ToolEnvironment tools) {
        if (preferences == null) {
            adapt.checkKnown(tools.specs().stream().map(ToolSpec::name).toList());
            preferences = new ToolPreferences(adapt.prior(), config.seed());
            Path file = workDir.resolve(PREFERENCES_FILE);
            if (Files.exists(file)) {
                PreferenceFile.Snapshot kept = PreferenceFile.snapshot(file, tools.specs().stream().map(ToolSpec::name).toList());
                preferences.restore(kept.experience());
                preferences.restoreEpisodes(kept.episodes(), kept.lastUsed());
            }
        }
        return preferences;
    }

    /** Writes the trained adapter in PEFT format. */
    public void save(Path dir) {
        if (adapter == null) throw new IllegalStateException("nothing to save: the Brain has not trained yet");
        try {
            PeftAdapterIo.save(dir, adapter);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the adapter to " + dir, e);
        }
    }

    /** Evaluates and trains from here on with a saved PEFT adapter (e.g. a run's {@code adapter/}). */
    public void loadAdapter(Path dir) {
        adapter = PeftAdapterIo.load(dir);
    }

    /** The adapter trained last, if any. */
    public Optional<AdapterWeights> adapter() {
        return Optional.ofNullable(adapter);
    }

    /**
     * The action format the agent is asked to act in: the one given to the builder, else the model's native
     * tool-call format ({@link NativeActionFormat}: its family's when it has its own chat template, else Tool-N1),
     * looked up when first needed.
     */
    public synchronized ActionFormat actionFormat() {
        if (actionFormat == null) actionFormat = NativeActionFormat.forModel(modelDir);
        return actionFormat;
    }

    /** The specifications of the agent's own tools (its suite's). */
    public List<ToolSpec> tools() {
        try (OpenTools tools = openTools()) {
            return tools.specs();
        }
    }

    /** The base model the Brain trains on (after {@link #distill}, the distilled one). */
    public Path model() {
        return modelDir;
    }

    /**
     * Knowledge distillation as a warm-up: the teacher (built for this Brain's student and tools: an
     * OpenAI-compatible endpoint, a local model folder, a task oracle, see {@link TeacherFactory}) answers
     * {@code dataset} with the student's tools, its traces are cached in the work folder (a second run makes no
     * teacher call), those whose reward exceeds {@code threshold} are kept, and every weight of the student's base
     * model is trained on them by SFT. The result becomes the Brain's base model, written to
     * {@code <workDir>/distilled}; training afterwards puts its adapter on it. A teacher that is
     * {@link AutoCloseable} (a served local model) is closed when distillation ends.
     *
     * @param learner the SFT optimiser's settings (learning rate schedule, micro-batch)
     */
    public DistillReport distill(DistillDataset dataset, TeacherFactory teacher, double threshold, int epochs,
                                 int batch, LearnerConfig learner) {
        return distill(dataset, teacher, threshold, epochs, batch, learner, LearnerSft.Validation.NONE);
    }

    /**
     * As {@link #distill(DistillDataset, TeacherFactory, double, int, int, LearnerConfig)}, holding out the last
     * {@code validation.heldOut()} demonstrations to score every pass on (the report's {@code passes}) and, with a
     * patience, stopping at the pass with the lowest held-out loss.
     */
    public DistillReport distill(DistillDataset dataset, TeacherFactory teacher, double threshold, int epochs,
                                 int batch, LearnerConfig learner, LearnerSft.Validation validation) {
        Path distilled = workDir.resolve("distilled");
        try (LocalPolicy policy = LocalPolicy.load(modelDir, null, null, 1);
             OpenTools tools = openTools();
             NDManager manager = ComputeDevice.newBaseManager();
             PolicyModel student = ModelLoader.load(modelDir, null, manager);
             LearnerCore core = new LearnerCore(student.transformer(), new FullWeights(student.transformer()), learner)) {
            Student who = new Student(modelDir.getFileName().toString(), policy.tokenizer(), policy.chatFormat(),
                    policy.chatFormat().stopTokenIds().iterator().next());
            LearnerSft sft = new LearnerSft(core, epochs, threshold, batch, config.seed(), progress, validation);
            Distiller distiller = new Distiller(who, tools, new DistillSettings(1, threshold, config.rollouts().greedyAgent(actionFormat())),
                    new TraceCache(workDir.resolve("teacher-cache")), sft, progress);
            DistillReport report;
            Teacher made = teacher.create(who, tools.specs());
            try {
                report = OpThreads.with(TrainingRun.LEARNER_INTRA_OP_THREADS, () -> distiller.distill(dataset, made))
                        .withPasses(sft.passes(), sft.keptPass());
            } finally {
                if (made instanceof AutoCloseable closeable) closeTeacher(closeable);
            }
            ModelFolders.withWeights(modelDir, distilled, student.config(), student.transformer().weights().toHf(student.config()));
            modelDir = distilled;
            adapter = null;
            return report;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the distilled model to " + distilled, e);
        }
    }

    private static void closeTeacher(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the teacher: " + e.getMessage(), e);
        }
    }

    /** Zero-Learn: training queries for {@code taskDescription} written by an external model from the tools' specifications. */
    public ZeroLearnResult generateTrainingExamples(String taskDescription, int numExamples, int minToolCalls, int maxWords,
                                                   String guidanceExample, OpenAiClient externalModel,
                                                   List<ToolSpec> externalTools, boolean selfRank) {
        return ZeroLearn.withDefaults(externalModel).generateTrainingExamples(taskDescription, numExamples, minToolCalls,
                maxWords, guidanceExample, externalTools, selfRank);
    }

    /**
     * CRYSTALLIZE: this agent's successful traces (a run's {@code traces.jsonl}) mined into validated composite tools
     * over its suite, saved in {@code skillsDir} (pending approval unless the settings approve them). The traces'
     * results went through the tool executor's output cap and then this Brain's agent's: validation replays cut the same.
     */
    public Crystallizer.Report crystallize(List<Trace> traces, Path skillsDir, Crystallizer.Settings settings, String source) {
        if (hostedSuite) throw new IllegalArgumentException("skills are mined over built-in suites, not the cluster's suite '" + suites.get(0) + "'");
        try (BuiltinSuites.Hosted hosted = BuiltinSuites.open(suites.get(0), toolOptions)) {
            return new Crystallizer(settings).crystallize(traces, hosted.suite(), new SkillLibrary(skillsDir), source);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write skills to " + skillsDir + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot open tool suite '" + suites.get(0) + "': " + e.getMessage(), e);
        }
    }

    /**
     * The agent's tools for rollouts on this node (evaluation, distillation, a job's oracle texts): the built-in suite
     * in this process, or the cluster's hosted suite reached through the tool nodes as the athletes reach it. Close it
     * after use.
     *
     * @throws IllegalArgumentException when the suite cannot be opened or no tool node hosts it in time
     */
    public OpenTools openTools() {
        if (hostedSuite) {
            try {
                return new OpenTools(ClusterToolEnvironment.connect(node.system(), suites,
                        ClusterToolSettings.fromConfig(node.system().settings().config())).toCompletableFuture().join());
            } catch (java.util.concurrent.CompletionException e) {
                throw new IllegalArgumentException(e.getCause() == null ? e.getMessage() : e.getCause().getMessage(), e);
            }
        }
        try {
            return new OpenTools(new ToolExecutor(BuiltinSuites.withSkills(BuiltinSuites.open(suites.get(0), toolOptions).suite(),
                    toolOptions), ExecutorSettings.defaults()));
        } catch (MailSourceException e) {
            throw new IllegalArgumentException("cannot open tool suite '" + suites.get(0) + "': " + e.getMessage(), e);
        }
    }

    /** The agent's tools, open until closed: a built-in suite's executor or a connection to the cluster's tool nodes. */
    public static final class OpenTools implements ToolEnvironment, AutoCloseable {
        private final ToolEnvironment tools;
        private final AutoCloseable owner;

        private <T extends ToolEnvironment & AutoCloseable> OpenTools(T tools) {
            this.tools = tools;
            this.owner = tools;
        }

        @Override
        public List<ToolSpec> specs() {
            return tools.specs();
        }

        @Override
        public List<java.util.concurrent.CompletionStage<dev.toolcoach.trace.ToolResult>> execute(String trajectoryId,
                                                                                                List<dev.toolcoach.trace.ToolCall> calls) {
            return tools.execute(trajectoryId, calls);
        }

        @Override
        public java.util.concurrent.CompletionStage<Void> release(String trajectoryId) {
            return tools.release(trajectoryId);
        }

        @Override
        public void close() {
            try {
                owner.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot close the tools: " + e.getMessage(), e);
            }
        }
    }

    /** Builds a {@link Brain}; model, tool, reward and work folder are required. */
    public static final class Builder {
        private Path modelDir;
        private ActionFormat actionFormat;
        private List<String> suites = List.of();
        private boolean hostedSuite;
        private BuiltinSuites.Options toolOptions = BuiltinSuites.Options.defaults();
        private Path skills;
        private Reward reward;
        private String algorithm;
        private TrainingConfig config = TrainingConfig.defaults();
        private Path workDir;
        private JobNode node;
        private List<ToolSpec> distractors = List.of();
        private Progress progress = Progress.NONE;
        private AdaptSettings adapt;
        private String adaptContext;

        private Builder() {
        }

        /** Shows how far evaluations and distillation are (e.g. a {@link dev.toolcoach.brain.run.ConsoleProgress}). */
        public Builder progress(Progress progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        /**
         * Tools added to the agent's catalogue beside its suite (other suites' specifications, dataset schemas: see
         * {@code retrieval.offer.Distractors}); nothing serves them, so a call to one is an error the agent sees.
         * Without {@link Brain#enableToolRetrieval} every query is offered the whole catalogue.
         */
        public Builder distractorTools(List<ToolSpec> tools) {
            this.distractors = List.copyOf(tools);
            return this;
        }

        /**
         * An LLM judge as the reward (ToolBrain's ranking judge, or RULER's relative scores): each group's rollouts,
         * with their tool calls and outputs, are shown to the model at {@code judge} together, and it ranks them
         * ({@code ranking}: rewards linear in rank, best 1, worst 0) or scores each relative to the others in [0, 1]
         * ({@code relative}). With {@code algorithm("dpo")} the preference pairs follow the judge's order.
         */
        public Builder judgeReward(OpenAiClient judge, String mode) {
            return reward(new RankingJudge(judge, JudgeSettings.defaults(judgeMode(mode))).asReward());
        }

        /** {@code ranking} (ToolBrain) or {@code relative} (RULER), any case. */
        public static JudgeMode judgeMode(String mode) {
            String m = mode == null ? "" : mode.trim().toLowerCase(java.util.Locale.ROOT);
            return switch (m) {
                case "ranking" -> JudgeMode.RANKING;
                case "relative", "relative-scores", "ruler" -> JudgeMode.RELATIVE_SCORES;
                default -> throw new IllegalArgumentException("unknown judge mode '" + mode + "'; valid: ranking, relative");
            };
        }

        /**
         * Trains on a running cluster through its coach node (this JVM's node, e.g. {@code JobNode.attach(system)}):
         * the cluster's athlete and tool nodes do the rollouts. Without it, training runs embedded: every role
         * on a one-node cluster in this JVM.
         */
        public Builder onNode(JobNode coachNode) {
            this.node = Objects.requireNonNull(coachNode, "coachNode");
            return this;
        }

        /** A Hugging Face model folder (config.json, safetensors, tokenizer.json). */
        public Builder model(Path dir) {
            this.modelDir = dir;
            return this;
        }

        /** The action format (default: the model's native one, see {@link Brain#actionFormat()}). */
        public Builder actionFormat(ActionFormat format) {
            this.actionFormat = Objects.requireNonNull(format, "format");
            return this;
        }

        /** The built-in tool suite the agent uses ({@code arithmetic}, {@code finance}, {@code email}, {@code sql}). */
        public Builder tool(String suite) {
            this.suites = List.of(suite);
            this.hostedSuite = false;
            return this;
        }

        /**
         * The suite of this name the cluster's tool nodes host (an MCP server in {@code toolcoach.tools.mcp.servers}, or
         * a built-in suite served there) instead of a built-in one opened here: training, evaluation and distillation
         * all call it through the tool nodes. Needs {@link #onNode}.
         */
        public Builder hostedTool(String suite) {
            this.suites = List.of(suite);
            this.hostedSuite = true;
            return this;
        }

        public Builder toolOptions(BuiltinSuites.Options options) {
            this.toolOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * CRYSTALLIZE's output in use: the approved skills of this skill library folder join the agent's suite as
         * composite tools (offered to the model, run by the tool servers like any tool). Mining and approving skills
         * is {@code coach-node skills}.
         */
        public Builder skills(Path folder) {
            this.skills = Objects.requireNonNull(folder, "folder");
            return this;
        }

        /** Any reward; per-trace and per-group rewards are both called through this one interface. */
        public Builder reward(Reward reward) {
            this.reward = reward;
            return this;
        }

        /** A reward on one trace, with the example's fields (gold answer, ...) in its context. */
        public Builder traceReward(String name, TraceReward reward) {
            return reward(Reward.perTrace(name, reward));
        }

        /** A reward on a whole group at once (a ranking judge). */
        public Builder groupReward(String name, GroupReward reward) {
            return reward(Reward.ofGroup(name, reward));
        }

        /** {@code grpo}, {@code dpo} or {@code sft}, any case. */
        public Builder algorithm(String name) {
            this.algorithm = name;
            return this;
        }

        public Builder config(TrainingConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Where checkpoints, the teacher cache and distilled models go. */
        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        /**
         * Turns TILE's ADAPT on: calls to equivalent tools are served by Thompson sampling over the Beta preferences
         * of {@code context} (e.g. {@code task:finance}), learned from every outcome; with {@link AdaptSettings#hint} the
         * agent sees every tool and each rollout's system prompt names the sampled one instead. In evaluation the
         * preferences are this Brain's, kept in the work folder between sessions; in training, the athlete nodes' replicated ones.
         */
        public Builder adapt(AdaptSettings settings, String context) {
            this.adapt = Objects.requireNonNull(settings, "settings");
            this.adaptContext = Objects.requireNonNull(context, "context");
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming what is missing or wrong */
        public Brain build() {
            return new Brain(this);
        }
    }
}
