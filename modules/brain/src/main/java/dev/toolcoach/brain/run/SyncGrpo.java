package dev.toolcoach.brain.run;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.brain.AgentTools;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.learner.CompleteGroup;
import dev.toolcoach.cluster.learner.GroupScorer;
import dev.toolcoach.cluster.learner.StepResult;
import dev.toolcoach.cluster.learner.TrainingStep;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.core.TrainingMetrics;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The training algorithm in one loop, to read before the actors: what a job does at policy lag 0 (the synchronous
 * mode), in one JVM, without a coach, athletes, tool servers or a learner actor. Each step opens the next groups of the
 * dataset (walked in order and wrapped, named {@code g0}, {@code g1}, ... as the coach names them), rolls each out G
 * times with the current adapter (each rollout seeded from the job's seed and its id, as an athlete seeds it), scores each
 * group whole with the job's reward (the learner's {@link GroupScorer}), trains one update on the batch (the learner's
 * {@link TrainingStep}: GRPO, DPO or SFT on the LoRA adapter) and gives the new adapter to the engine, which the next
 * step's rollouts sample from. The engine, the learner and the agent are set up as {@link TrainingRun} sets them up, so
 * a cluster run of the same spec trains the same groups into the same steps ({@code SyncGrpoTest} pins the two).
 *
 * <p>What the cluster adds: rollouts pulled by athletes across nodes, a policy lag above 0, dynamic sampling, dropped
 * groups refilled by fresh queries, deadlines and re-dispatch, checkpoints and resumption.
 */
public final class SyncGrpo implements AutoCloseable {

    /**
     * One step.
     *
     * @param step          the job's step, from 1
     * @param version       the adapter version after it
     * @param groups        its batch, scored, in the order the groups were opened
     * @param metrics       the update's figures
     * @param rolloutMillis wall time of sampling and scoring
     * @param trainMillis   wall time of the update
     */
    public record Step(long step, int version, List<ScoredGroup> groups, TrainingMetrics metrics, long rolloutMillis,
                       long trainMillis) {
        public int rollouts() {
            return groups.stream().mapToInt(g -> g.traces().size()).sum();
        }

        public double meanReward() {
            return groups.stream().flatMapToDouble(g -> Arrays.stream(g.rewards())).average().orElse(0);
        }
    }

    private final TrainingRun.Spec spec;
    private final AgentTools.Open tools;
    private final LocalPolicy engine;
    private final PolicyModel learnerModel;
    private final LearnerCore learner;
    private final AgentLoop agent;
    private final long rolloutSeed;
    private final GroupScorer scorer;
    private final TrainingStep training;
    private long nextGroup;
    private long stepsDone;

    /**
     * The job's engine (a batch of {@code athletes} sequences), learner (a LoRA adapter on its own copy of the base) and
     * agent (the job's built-in suite opened in this process).
     *
     * @throws IllegalArgumentException for a job this loop does not run: more than one suite, or dynamic sampling
     */
    public static SyncGrpo open(TrainingRun.Spec spec) {
        if (spec.suites().size() != 1) throw new IllegalArgumentException("the synchronous loop runs one built-in suite, got " + spec.suites());
        if (spec.config().batching().oversampling() != 1) {
            throw new IllegalArgumentException("the synchronous loop does not sample dynamically: oversampling must be 1, was "
                    + spec.config().batching().oversampling());
        }
        return new SyncGrpo(spec);
    }

    private SyncGrpo(TrainingRun.Spec spec) {
        this.spec = spec;
        TrainingConfig config = spec.config();
        AgentTools.Open opened = null;
        LocalPolicy loaded = null;
        PolicyModel base = null;
        try {
            opened = new AgentTools(spec.suites().get(0), false, spec.toolOptions(), null).open();
            loaded = LocalPolicy.load(spec.modelDir(), null, null, config.athletes(), config.device());
            base = ModelLoader.shared(spec.modelDir(), null, config.device());
            this.learner = new LearnerCore(base.transformer(), new LoraWeights(base.addLora(config.optimisation().lora(), config.seed())),
                    TrainingRun.learnerConfig(config));
        } catch (RuntimeException e) {
            if (base != null) base.close();
            if (loaded != null) loaded.close();
            if (opened != null) opened.close();
            throw e;
        }
        this.tools = opened;
        this.engine = loaded;
        this.learnerModel = base;
        AgentConfig sampling = config.rollouts().samplingAgent(spec.actionFormat(), config.seed());
        this.agent = new AgentLoop(engine.tokenizer(), engine.chatFormat(), engine.generator(),
                CodeActEnvironment.forFormat(sampling.actionFormat(), tools), sampling);
        this.rolloutSeed = sampling.sampling().seed();
        this.scorer = new GroupScorer(spec.reward(), TaskRewards.contexts(spec.dataset()));
        this.training = new TrainingStep(learner, config.algorithm(), config.optimisation().sftRewardThreshold());
        publish(learner.adapterWeights()); // as the learner does when it starts
    }

    /** The job: {@code spec.steps()} steps over the dataset, walked in order and wrapped, as the coach opens its groups. */
    public List<Step> run(Consumer<Step> onStep) {
        List<Step> steps = new ArrayList<>();
        int perStep = spec.config().batching().groupsPerStep();
        while (stepsDone < spec.steps()) {
            List<TaskExample> queries = new ArrayList<>(perStep);
            for (int i = 0; i < perStep; i++) queries.add(spec.dataset().get((int) ((nextGroup + i) % spec.dataset().size())));
            Step step = step(queries);
            onStep.accept(step);
            steps.add(step);
        }
        return steps;
    }

    /** One step on these queries, one group each. */
    public Step step(List<TaskExample> queries) {
        long start = System.nanoTime();
        // 1. every rollout of every group at once, so the engine decodes them together
        List<String> groupIds = new ArrayList<>();
        List<List<CompletableFuture<Trace>>> rollouts = new ArrayList<>();
        for (TaskExample query : queries) {
            String groupId = "g" + nextGroup++;
            groupIds.add(groupId);
            rollouts.add(IntStream.range(0, spec.config().batching().groupSize())
                    .mapToObj(i -> agent.run(query.rolloutRequest(groupId + "/" + i, groupId).seededFrom(rolloutSeed)).toCompletableFuture())
                    .toList());
        }
        // 2. each group scored whole by the job's reward
        List<ScoredGroup> batch = new ArrayList<>();
        for (int g = 0; g < queries.size(); g++) {
            List<Trace> traces = rollouts.get(g).stream().map(CompletableFuture::join).toList();
            GroupScorer.Score score = scorer.score(new CompleteGroup(groupIds.get(g), traces, learner.version()));
            if (!(score instanceof GroupScorer.Scored scored)) {
                throw new IllegalStateException("the synchronous loop refills no group, and "
                        + ((GroupScorer.Unscored) score).reason());
            }
            batch.add(scored.group());
        }
        long sampled = System.nanoTime();
        // 3. one update on the batch; a changed adapter reaches the engine before the next step samples
        StepResult result = training.run(batch);
        result.published().ifPresent(this::publish);
        return new Step(++stepsDone, result.version(), batch, result.metrics(), (sampled - start) / 1_000_000,
                result.elapsed().toMillis());
    }

    /** The adapter as trained so far. */
    public AdapterWeights adapter() {
        return learner.adapterWeights();
    }

    private void publish(AdapterWeights adapter) {
        engine.engine().setAdapter(adapter);
        engine.engine().whenAdapterAtLeast(adapter.version()).join();
    }

    @Override
    public void close() {
        try (AgentTools.Open closingTools = tools; LocalPolicy closingEngine = engine; PolicyModel closingBase = learnerModel) {
            learner.close();
        }
    }
}
