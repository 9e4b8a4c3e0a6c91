package dev.toolcoach.brain;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.agent.adapt.AdaptSettings;
import dev.toolcoach.agent.adapt.ToolPreferences;
import dev.toolcoach.brain.distill.DistillDataset;
import dev.toolcoach.brain.distill.DistillReport;
import dev.toolcoach.brain.distill.LearnerSft;
import dev.toolcoach.brain.distill.StudentDistillation;
import dev.toolcoach.brain.distill.TeacherFactory;
import dev.toolcoach.brain.eval.EvalPreferences;
import dev.toolcoach.brain.eval.EvalSession;
import dev.toolcoach.brain.eval.EvaluationProbe;
import dev.toolcoach.brain.eval.PeriodicEvaluation;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.eval.PassAtK;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.SyncGrpo;
import dev.toolcoach.brain.run.TrainingRun;
import dev.toolcoach.brain.zerolearn.ZeroLearn;
import dev.toolcoach.brain.zerolearn.ZeroLearnResult;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.protocol.JobProtocol.AdaptSpec;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.openai.OpenAiClient;
import dev.toolcoach.policy.NativeActionFormat;
import dev.toolcoach.retrieval.offer.QueryTools;
import dev.toolcoach.retrieval.offer.RetrievalMode;
import dev.toolcoach.retrieval.offer.ToolRetrievalSettings;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.tools.skills.Crystallizer;
import dev.toolcoach.trace.Trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * ToolCoach's one-object interface: an agent (a model, its tools, its action format), a reward, an algorithm and a
 * config; then {@link #train}, {@link #evaluate}, {@link #save}, and distillation ({@link #distill}) as a warm-up. A
 * facade: training is {@code brain.run}'s (the same actors as a multi-node job, on a one-node cluster in this JVM or on
 * a coach node), evaluation {@code brain.eval}'s, distillation {@code brain.distill}'s, Zero-Learn {@code brain.zerolearn}'s.
 *
 * <pre>{@code
 * Task task = TaskRegistry.standard(Path.of("../shared/data"), 1).get("finance");
 * Split split = task.split(0.2, 1);
 * Brain brain = Brain.builder()
 *         .model(Path.of("runs/demo/base"))                        // a Hugging Face model folder
 *         .tool(task.toolSuites().get(0))                          // a built-in tool suite
 *         .traceReward("answer", (trace, example) -> ...)          // or .groupReward(...), or .reward(Reward)
 *         .algorithm(Algorithm.GRPO)
 *         .config(TrainingConfig.defaults())
 *         .workDir(Path.of("runs/demo"))
 *         .build();
 * brain.train(split.train(), 30);
 * System.out.println(brain.evaluate(split.test(), task.reward()).accuracy());
 * brain.save(Path.of("runs/demo/adapter"));                        // PEFT format
 * }</pre>
 *
 * <p>With {@link BrainBuilder#distractorTools} the agent's catalogue grows beyond its suite; {@link #enableToolRetrieval}
 * then offers each query only the tools a retriever chooses (ToolBrain's {@code enable_tool_retrieval=True}).
 */
public final class Brain {

    /** The file in the work folder ADAPT's preferences are kept in between sessions (see {@link BrainBuilder#adapt}). */
    public static final String PREFERENCES_FILE = "tile_preferences.json";

    /** TILE's ADAPT: its settings and the context key of the agent's calls. */
    record Adapt(AdaptSettings settings, String context) {
    }

    private Path modelDir;
    /** The chosen format, or the model's native one once it has been looked up (see {@link #actionFormat()}). */
    private ActionFormat actionFormat;
    private final AgentTools tools;
    private final Reward reward;
    private final TrainingConfig config;
    private final Path workDir;
    private final List<ToolSpec> distractors;
    private final Progress progress;
    private final Optional<Adapt> adapt;
    private Optional<ToolRetrievalSettings> retrieval = Optional.empty();
    private OpenAiClient retrievalModel;
    private AdapterWeights adapter;
    /** ADAPT's preferences in evaluation, kept in the work folder; empty without ADAPT. */
    private final Optional<EvalPreferences> preferences;

    Brain(Path modelDir, ActionFormat actionFormat, AgentTools tools, Reward reward, TrainingConfig config, Path workDir,
          List<ToolSpec> distractors, Progress progress, Optional<Adapt> adapt) {
        this.modelDir = modelDir;
        this.actionFormat = actionFormat;
        this.tools = tools;
        this.reward = reward;
        this.config = config;
        this.workDir = workDir;
        this.distractors = List.copyOf(distractors);
        this.progress = Objects.requireNonNull(progress, "progress");
        this.adapt = adapt;
        this.preferences = adapt.map(a -> new EvalPreferences(a.settings(), a.context(), workDir.resolve(PREFERENCES_FILE), config.seed()));
    }

    public static BrainBuilder builder() {
        return new BrainBuilder();
    }

    /**
     * Zero-Learn: training queries for {@code taskDescription} written by an external model from the tools'
     * specifications ({@link ZeroLearn}); static, as it needs no Brain.
     */
    public static ZeroLearnResult generateTrainingExamples(String taskDescription, int numExamples, int minToolCalls, int maxWords,
                                                           String guidanceExample, OpenAiClient externalModel,
                                                           List<ToolSpec> externalTools, boolean selfRank) {
        return ZeroLearn.withDefaults(externalModel).generateTrainingExamples(taskDescription, numExamples, minToolCalls,
                maxWords, guidanceExample, externalTools, selfRank);
    }

    /** As {@link #enableToolRetrieval(String, int, OpenAiClient)} for the {@code lexical} mode, which asks no model. */
    public Brain enableToolRetrieval(String mode, int k) {
        return enableToolRetrieval(mode, k, null);
    }

    /**
     * From now on each query is offered only the {@code k} tools the retriever chooses from the catalogue (the suite's
     * tools and the {@linkplain BrainBuilder#distractorTools distractors}), in training and in evaluation; which tools a
     * rollout was offered is in its trace ({@code offered_tools}).
     *
     * @param mode     {@code lexical} (BM25), {@code llm} or {@code hybrid} (these two ask {@code selector})
     * @param selector the model the {@code llm} and {@code hybrid} modes ask; null for {@code lexical}
     */
    public synchronized Brain enableToolRetrieval(String mode, int k, OpenAiClient selector) {
        ToolRetrievalSettings settings = ToolRetrievalSettings.of(RetrievalMode.parse(mode), k);
        if (settings.mode().needsModel() && selector == null) {
            throw new IllegalArgumentException("tool retrieval '" + settings.mode().label() + "' asks a model: pass its client");
        }
        this.retrieval = Optional.of(settings);
        this.retrievalModel = selector;
        return this;
    }

    /**
     * The examples as the agent gets them: unchanged when the catalogue is the suite alone and retrieval is off, else
     * each offering the tools chosen for its query (the whole catalogue without retrieval).
     */
    public synchronized List<TaskExample> offeredTools(List<TaskExample> examples) {
        if (distractors.isEmpty() && retrieval.isEmpty()) return examples;
        List<ToolSpec> catalogue = new ArrayList<>(tools.specs());
        catalogue.addAll(distractors);
        try (QueryTools offer = new QueryTools(catalogue, retrieval, Optional.ofNullable(retrievalModel))) {
            return offer.offer(examples);
        }
    }

    /**
     * Trains until the job has taken {@code steps} learner steps over {@code dataset} (walked in order and wrapped),
     * telling {@code onStep} of every learner step (on the learner's thread). A second call continues the same job from
     * its last checkpoint in the work folder. Without a node, the synchronous mode (a policy lag of 0) runs as one loop
     * in this process ({@link SyncGrpo}); otherwise the coach, athletes, tool servers and learner run it as actors.
     *
     * @param jobId names this run of the job on the cluster; unique per call
     */
    public TrainingRun.Result train(List<TaskExample> dataset, int steps, Consumer<StepReport> onStep, String jobId) {
        return train(dataset, steps, onStep, jobId, Optional.empty());
    }

    /**
     * {@link #train(List, int, Consumer, String)} with a small held-out evaluation every N steps, which the learner runs
     * before its next step with the adapter of the step it follows (the base model loaded once for all of them; ADAPT's
     * preferences neither route nor learn from it).
     */
    public TrainingRun.Result train(List<TaskExample> dataset, int steps, Consumer<StepReport> onStep, String jobId,
                                    Optional<PeriodicEvaluation> heldOut) {
        TrainingRun.Spec.Builder spec = TrainingRun.Spec.builder().config(config).modelDir(modelDir).actionFormat(actionFormat())
                .suites(tools.suites()).toolOptions(tools.options()).dataset(offeredTools(dataset)).steps(steps).reward(reward)
                .checkpointDir(workDir.resolve("checkpoints")).jobId(jobId);
        adapt.map(this::adaptSpec).ifPresent(spec::adapt);
        if (adapter != null) spec.startAdapter(adapter); // a loaded (or earlier trained) adapter is where a new job starts
        try (EvaluationProbe probe = heldOut.map(h -> new EvaluationProbe(h, () -> evaluation(h.examples().size(), false)))
                .orElse(null)) {
            if (probe != null) spec.probe(probe);
            // embedded, the synchronous mode is one loop in this thread; a policy lag above 0 or a cluster takes the actors
            TrainingRun.Result result = tools.node() != null ? TrainingRun.run(spec.build(), tools.node(), onStep)
                    : config.batching().maxPolicyLag() == 0 ? SyncGrpo.run(spec.build(), onStep)
                    : TrainingRun.runEmbedded(spec.build(), onStep);
            adapter = result.adapter();
            return result;
        }
    }

    public TrainingRun.Result train(List<TaskExample> dataset, int steps) {
        return train(dataset, steps, report -> { }, "brain-" + UUID.randomUUID());
    }

    /**
     * An evaluation phase: the base model with the trained or loaded adapter (none before training) loaded once, for
     * every {@link EvalSession#evaluate} (greedy) and {@link EvalSession#passAtK} (sampled as training samples) until
     * closed; each call's examples are offered their tools first.
     *
     * @param rollouts the most rollouts one call runs at once (the engine's batch, at most {@link EvalSession#MAX_BATCH})
     */
    public EvalSession evaluation(int rollouts) {
        return evaluation(rollouts, true);
    }

    /** @param phase an evaluation phase of its own (ADAPT's preferences route and learn, progress is shown), not a probe */
    private EvalSession evaluation(int rollouts, boolean phase) {
        AgentTools.Open open = tools.open();
        try {
            Optional<EvalPreferences> routing = phase ? preferences : Optional.empty();
            ToolEnvironment agentTools = routing.map(p -> p.route(open)).orElse(open);
            return EvalSession.open(modelDir, Optional.ofNullable(adapter), rollouts, open, agentTools,
                    config.rollouts().samplingAgent(actionFormat(), config.seed()), this::offeredTools,
                    phase ? progress : Progress.NONE, () -> routing.ifPresent(EvalPreferences::save), config.device());
        } catch (RuntimeException e) {
            open.close();
            throw e;
        }
    }

    /** Each example once, greedily, with the trained adapter (the base model before any training), scored by {@code score}. */
    public EvaluationReport evaluate(List<TaskExample> examples, TraceReward score) {
        try (EvalSession session = evaluation(examples.size())) {
            return session.evaluate(examples, score);
        }
    }

    /** pass@k of the policy as training samples it: {@code samples} rollouts of each example, scored by {@code score}. */
    public PassAtK passAtK(List<TaskExample> examples, TraceReward score, int samples, int k) {
        try (EvalSession session = evaluation(examples.size() * samples)) {
            return session.passAtK(examples, score, samples, k);
        }
    }

    /** ADAPT for the training job's athletes, its groups checked here against the suite's tools. */
    private AdaptSpec adaptSpec(Adapt a) {
        a.settings().checkKnown(tools.specs().stream().map(ToolSpec::name).toList());
        return new AdaptSpec(a.context(), a.settings().equivalent().groups(), a.settings().hint());
    }

    /** ADAPT's tool preferences in evaluation (empty before the first one): restored from the work folder on first use. */
    public Optional<ToolPreferences> toolPreferences() {
        return preferences.flatMap(EvalPreferences::current);
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

    /**
     * Evaluates and trains from here on with a saved PEFT adapter (e.g. a run's {@code adapter/}): a new training job
     * starts from it, with its LoRA settings.
     */
    public void loadAdapter(Path dir) {
        adapter = PeftAdapterIo.load(dir);
    }

    /** The adapter trained last, if any. */
    public Optional<AdapterWeights> adapter() {
        return Optional.ofNullable(adapter);
    }

    /**
     * The action format the agent is asked to act in: the one given to the builder, else the model's native tool-call
     * format ({@link NativeActionFormat}), looked up when first needed.
     */
    public synchronized ActionFormat actionFormat() {
        if (actionFormat == null) actionFormat = NativeActionFormat.forModel(modelDir);
        return actionFormat;
    }

    /** The agent's tools: its suite, and where it is served. */
    public AgentTools agentTools() {
        return tools;
    }

    /** The base model the Brain trains on (after {@link #distill}, the distilled one). */
    public Path model() {
        return modelDir;
    }

    /** As {@link #distill(DistillDataset, TeacherFactory, double, int, int, LearnerConfig, LearnerSft.Validation)}, every demonstration trained on. */
    public DistillReport distill(DistillDataset dataset, TeacherFactory teacher, double threshold, int epochs, int batch,
                                 LearnerConfig learner) {
        return distill(dataset, teacher, threshold, epochs, batch, learner, LearnerSft.Validation.NONE);
    }

    /**
     * Knowledge distillation as a warm-up ({@link StudentDistillation}): the teacher answers {@code dataset} with the
     * student's tools, its good traces train every weight of the Brain's base model, which becomes
     * {@code <workDir>/distilled}; training afterwards puts its adapter on it.
     *
     * @param learner    the SFT optimiser's settings (learning rate schedule, micro-batch)
     * @param validation the last demonstrations held out to score every pass on, and a patience ({@link LearnerSft.Validation#NONE}: none)
     */
    public DistillReport distill(DistillDataset dataset, TeacherFactory teacher, double threshold, int epochs, int batch,
                                 LearnerConfig learner, LearnerSft.Validation validation) {
        Path distilled = workDir.resolve("distilled");
        DistillReport report;
        try (AgentTools.Open open = tools.open()) {
            report = new StudentDistillation(modelDir, distilled, workDir.resolve("teacher-cache"),
                    config.rollouts().greedyAgent(actionFormat()), config.seed(), progress, config.device())
                    .run(open, dataset, teacher, threshold, epochs, batch, learner, validation);
        }
        modelDir = distilled;
        adapter = null;
        return report;
    }

    /**
     * CRYSTALLIZE: this agent's successful traces (a run's {@code traces.jsonl}) mined into validated composite tools over
     * its suite, saved in {@code skillsDir} (pending approval unless the settings approve them).
     */
    public Crystallizer.Report crystallize(List<Trace> traces, Path skillsDir, Crystallizer.Settings settings, String source) {
        return tools.crystallize(traces, skillsDir, settings, source);
    }
}
