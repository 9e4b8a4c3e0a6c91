package dev.toolcoach.brain.run;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.brain.AgentTools;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.coach.Assignment;
import dev.toolcoach.cluster.coach.RolloutScheduler;
import dev.toolcoach.cluster.coach.CursorCodec;
import dev.toolcoach.cluster.learner.Admission;
import dev.toolcoach.cluster.learner.CompleteGroup;
import dev.toolcoach.cluster.learner.GroupScorer;
import dev.toolcoach.cluster.learner.LearnerSettings;
import dev.toolcoach.cluster.learner.LearnerSteps;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.learner.StepResult;
import dev.toolcoach.cluster.learner.TrainingStep;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.tile.TilePreferences;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.trace.Trace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The training loop in one thread of control: what an embedded job runs in the synchronous mode (policy lag 0), and
 * the loop to read before the actors. It drives the plain classes the actors are thin shells over, in their order:
 * <ol>
 *   <li>the coach's {@link RolloutScheduler} opens the next groups of the dataset ({@code g0}, {@code g1}, ..., walked in
 *       order and wrapped) and hands out their rollouts to as many engine slots as the job has athletes;</li>
 *   <li>an athlete's {@link AgentLoop} runs each rollout with the current adapter, seeded from the job's seed and its id;</li>
 *   <li>the learner's {@link LearnerSteps} groups the traces, {@link GroupScorer} scores each complete group with the
 *       job's reward, and a dropped group (unusable, unscored, without signal under dynamic sampling, given up) is
 *       replaced by a fresh query;</li>
 *   <li>{@link TrainingStep} trains one update on a full batch (GRPO, DPO or SFT on the LoRA adapter), which the engine
 *       samples the next groups with; the step is reported, checkpointed with the scheduler's cursor and probed.</li>
 * </ol>
 * Scoring, steps, checkpoints and probes run on the learner's training thread, as in the cluster, so a run of this loop
 * and a cluster run of the same spec at lag 0 train the same groups into the same steps ({@code SyncGrpoTest} pins the
 * two). The job's watchdog ends it as {@link TrainingFailedException} past its limits, as does an interrupt (a cancel).
 *
 * <p>With {@code TrainingConfig.Batching#turnBarrier} (the mode {@code turn-barrier}) the rollouts go out a batch at a
 * time, each batch behind a {@link TurnBarrier} that hands out a turn's replies together once all are generated and
 * starts the next turn once every tool call of the batch is back: the synchronous rollout asynchronous ones are
 * measured against. Each rollout samples from the same seed and adapter version as without it; only which rollouts
 * share the engine's decode steps changes.
 *
 * <p>What the actors add ({@link TrainingRun}): a policy lag above 0, athletes and tool servers on other nodes, and a
 * coach or athlete that dies and comes back.
 */
public final class SyncGrpo {
    private static final Logger LOG = LoggerFactory.getLogger(SyncGrpo.class);
    /** How the scheduler names this loop's engine: one athlete with a slot per job athlete. */
    private static final String ENGINE = "engine";
    private static final Duration DEADLINE_CHECK = Duration.ofSeconds(1);

    /** A rollout that ended, with its trace or the failure that left it without one. */
    private record Ended(String rolloutId, Trace trace, Throwable failure) {
    }

    /** What the loop holds open, closed in this order: the training thread, the learner, the engine, the tools. */
    private record Held(AgentTools.Open tools, LocalPolicy engine, PolicyModel learnerModel, TrainingRun.JobLearner learner,
                        ExecutorService trainingThread) implements AutoCloseable {

        /** The job's tools (opened here), engine (a batch of {@code athletes} sequences) and learner (resumed if it can). */
        static Held open(TrainingRun.Spec spec) {
            TrainingConfig config = spec.config();
            AgentTools.Open tools = null;
            LocalPolicy engine = null;
            PolicyModel base = null;
            try {
                tools = new AgentTools(spec.suites().isEmpty() ? AgentTools.NONE : spec.suites().get(0), false, spec.toolOptions(),
                        null).open();
                engine = LocalPolicy.load(spec.modelDir(), null, null, config.athletes(), config.device());
                base = ModelLoader.shared(spec.modelDir(), null, config.device());
                return new Held(tools, engine, base, TrainingRun.JobLearner.open(spec, base), TrainingRun.trainingThread());
            } catch (RuntimeException e) {
                try (AgentTools.Open t = tools; LocalPolicy en = engine; PolicyModel b = base) {
                    throw e;
                }
            }
        }

        @Override
        public void close() {
            trainingThread.shutdownNow(); // a step still running is interrupted
            TrainingRun.awaitQuietly(trainingThread);
            try (AgentTools.Open t = tools; PolicyModel b = learnerModel; LocalPolicy en = engine) {
                learner.core().close();
            }
        }
    }

    private final TrainingRun.Spec spec;
    private final Consumer<StepReport> onStep;
    private final LocalPolicy engine;
    private final TrainingRun.JobLearner learner;
    private final ExecutorService trainingThread;
    private final JobWatchdog watchdog;
    private final AgentLoop agent;
    private final long rolloutSeed;
    private final RolloutScheduler<String> scheduler;
    private final LearnerSteps steps;
    private final GroupScorer scorer;
    private final TrainingStep training;
    private final BlockingQueue<Ended> ended = new LinkedBlockingQueue<>();
    /** Under a turn barrier, the generator of each running rollout: its wave's barrier over the engine's. */
    private final Map<String, Generator> waves = new ConcurrentHashMap<>();

    /**
     * Runs the job to its end in this process: a new job, or the rest of one its checkpoint folder holds.
     *
     * @param onStep hears every step, on the caller's thread; a listener that fails fails the job
     * @throws IllegalArgumentException for a job this loop does not run: a policy lag above 0, or more than one suite
     * @throws TrainingFailedException  when the job cannot go on (the reward is unavailable, a step failed, the run
     *                                  folder cannot be written), passed a limit, or was interrupted
     */
    public static TrainingRun.Result run(TrainingRun.Spec spec, Consumer<StepReport> onStep) {
        if (spec.config().batching().maxPolicyLag() != 0) {
            throw new IllegalArgumentException("the synchronous loop runs at policy lag 0, was " + spec.config().batching().maxPolicyLag());
        }
        if (spec.suites().size() > 1) throw new IllegalArgumentException("the synchronous loop runs one built-in suite, got " + spec.suites());
        try (Held held = Held.open(spec)) {
            return new SyncGrpo(spec, onStep, held).fit();
        }
    }

    private SyncGrpo(TrainingRun.Spec spec, Consumer<StepReport> onStep, Held held) {
        this.spec = spec;
        this.onStep = onStep;
        this.engine = held.engine();
        this.learner = held.learner();
        this.trainingThread = held.trainingThread();
        TrainingConfig config = spec.config();
        AgentTools.Open tools = held.tools();
        this.watchdog = new JobWatchdog(config.limits(), System::nanoTime);
        AgentConfig sampling = config.rollouts().samplingAgent(spec.actionFormat(), config.seed());
        // ADAPT's preferences start fresh, as an embedded node's do
        ToolEnvironment routed = spec.adapt().map(adapt -> adapt.over(tools, TilePreferences.fresh(ConfigFactory.load()), config.seed()))
                .orElse(tools);
        Generator generator = config.batching().turnBarrier() ? new WaveGenerator(engine.generator()) : engine.generator();
        this.agent = new AgentLoop(engine.tokenizer(), engine.chatFormat(), generator,
                CodeActEnvironment.forFormat(sampling.actionFormat(), routed), sampling);
        this.rolloutSeed = sampling.sampling().seed();
        var coachSettings = TrainingRun.coachSettings(spec);
        this.scheduler = learner.cursor()
                .map(cursor -> RolloutScheduler.<String>resume(coachSettings, spec.dataset(), Clock.systemUTC(), cursor))
                .orElseGet(() -> RolloutScheduler.start(coachSettings, spec.dataset(), Clock.systemUTC()));
        this.scorer = new GroupScorer(spec.reward(), TaskRewards.contexts(spec.dataset()));
        this.training = new TrainingStep(learner.core(), config.algorithm(), config.optimisation().sftRewardThreshold());
        this.steps = new LearnerSteps(LearnerSettings.of(coachSettings.plan(), learner.cursor()), learner.core().version(),
                training::hasSignal);
    }

    /** The loop: sample, score, train, until every group the job allows has closed. */
    private TrainingRun.Result fit() {
        LOG.info("job {} starts in this process (the synchronous loop)", spec.jobId());
        publish(learner.core().adapterWeights());
        // under a turn barrier every rollout the scheduler may open goes out at once, as one batch
        dispatch(scheduler.request(ENGINE, turnBarrier() ? Integer.MAX_VALUE : spec.config().athletes()));
        while (true) {
            LearnerSteps.Next next = steps.next();
            if (next == LearnerSteps.Finish.INSTANCE) {
                return new TrainingRun.Result(learner.core().adapterWeights(), steps.accounts(), learner.resumedFromVersion());
            }
            if (next instanceof LearnerSteps.Train train) step(train);
            else collect();
        }
    }

    /**
     * Starts the rollouts the scheduler handed out (under a turn barrier, as one wave behind a barrier of its own), and
     * drops the groups it gave up (a rollout sent too often).
     */
    private void dispatch(List<Assignment<String>> assignments) {
        if (turnBarrier() && !assignments.isEmpty()) {
            List<String> ids = assignments.stream().map(a -> a.message().rolloutId()).toList();
            Generator wave = TurnBarrier.holdingReplies(ids).generator(engine.generator());
            ids.forEach(id -> waves.put(id, wave));
        }
        for (Assignment<String> assignment : assignments) {
            AssignRollout rollout = assignment.message();
            try {
                // stopped at the coach's deadline (which sends it out again), as an athlete stops it
                agent.run(rollout.example().rolloutRequest(rollout.rolloutId(), rollout.groupId()).seededFrom(rolloutSeed),
                                spec.config().batching().rolloutTimeout())
                        .whenComplete((trace, failure) -> ended.add(new Ended(rollout.rolloutId(), trace, failure)));
            } catch (RuntimeException e) {
                Generator wave = waves.remove(rollout.rolloutId());
                if (wave != null) wave.release(rollout.rolloutId()); // never run: it must not hold its wave
                ended.add(new Ended(rollout.rolloutId(), null, e));
            }
        }
        for (String groupId : scheduler.takeGivenUp()) {
            LOG.warn("group {} given up: a rollout of it went out too often; it is dropped", groupId);
            if (steps.giveUp(groupId)) dispatch(scheduler.groupDropped(groupId, GroupDropped.Reason.REDISPATCH_LIMIT));
        }
    }

    /**
     * Waits for the next rollout to end (or a deadline to pass: the rollout goes out again), hands its trace to the
     * learner's groups and scores the groups it completes; its slot takes the next rollout.
     */
    private void collect() {
        Ended next = poll();
        if (next == null) {
            dispatch(scheduler.expireDeadlines());
            return;
        }
        if (next.failure() != null && AgentLoop.stoppedAtLimit(next.failure())) {
            LOG.warn("rollout {} was stopped at its deadline; it goes out again", next.rolloutId());
        } else if (next.failure() != null) {
            LOG.error("rollout {} failed without a trace; its deadline dispatches it again", next.rolloutId(), next.failure());
        } else {
            offer(next.trace());
        }
        if (!turnBarrier()) dispatch(scheduler.request(ENGINE, 1));
    }

    private void offer(Trace trace) {
        Admission admission;
        try {
            admission = steps.offer(trace);
        } catch (IllegalArgumentException e) {
            LOG.error("trace of rollout {} cannot be grouped: {}", trace.rolloutId(), e.getMessage());
            return;
        }
        scheduler.rolloutReceived(trace.rolloutId());
        switch (admission) {
            case GROUP_STALE -> dispatch(scheduler.groupDropped(trace.groupId(), GroupDropped.Reason.STALE_POLICY));
            case GROUP_UNUSABLE -> dispatch(scheduler.groupDropped(trace.groupId(), GroupDropped.Reason.UNUSABLE));
            case GROUP_READY -> score();
            default -> {
            }
        }
    }

    /** Each complete group scored whole by the job's reward; one the step cannot use is dropped for a fresh query. */
    private void score() {
        for (CompleteGroup group : steps.takeCompleted()) {
            GroupScorer.Score score = onTrainingThread(() -> scorer.score(group));
            switch (steps.scored(score)) {
                case NO_SIGNAL -> dispatch(scheduler.groupDropped(score.groupId(), GroupDropped.Reason.NO_SIGNAL));
                case REWARD_FAILED -> dispatch(scheduler.groupDropped(score.groupId(), GroupDropped.Reason.REWARD_FAILED));
                case READY -> {
                }
            }
        }
    }

    /**
     * One update on the batch. The new adapter reaches the engine before the next groups open, which then sample while
     * the step is reported, checkpointed (with the cursor taken after its groups closed) and probed.
     */
    private void step(LearnerSteps.Train train) {
        StepResult result = onTrainingThread(() -> training.run(train.batch()));
        StepReport report = steps.stepDone(result);
        result.published().ifPresent(this::publish);
        List<Assignment<String>> opened = new ArrayList<>();
        for (ScoredGroup group : report.scored()) opened.addAll(scheduler.groupTrained(group.groupId(), report.version()));
        dispatch(opened);
        watchdog.stepDone();
        try {
            onStep.accept(report);
        } catch (RuntimeException e) {
            LOG.error("the step listener failed on step {}", report.step(), e);
            throw new TrainingFailedException("training stopped: " + TrainingRun.recordingFailed(report, e).getMessage(), e);
        }
        long jobStep = report.step();
        if (learner.checkpoints().due(jobStep)) {
            byte[] cursor = CursorCodec.encode(scheduler.snapshot());
            goOnAfterFailure("checkpoint at step " + jobStep, () -> learner.checkpoints().afterBatch(learner.core(), cursor, jobStep)
                    .ifPresent(f -> LOG.info("checkpoint {} (step {}, version {})", f, learner.core().step(), steps.version())));
        }
        spec.probe().filter(probe -> probe.due(jobStep)).ifPresent(probe ->
                goOnAfterFailure("the probe after step " + jobStep, () -> probe.run(jobStep, learner.core().adapterWeights())));
        steps.idle();
    }

    /** Runs {@code work} on the training thread; its failure is logged and training goes on. */
    private void goOnAfterFailure(String what, Runnable work) {
        onTrainingThread(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.error("{} failed; training goes on", what, e);
            }
            return null;
        });
    }

    /** The next ended rollout, or null when none ended within the deadline check. */
    private Ended poll() {
        try {
            Ended next = ended.poll(Math.min(DEADLINE_CHECK.toNanos(), watchdog.nanosUntilDue()), TimeUnit.NANOSECONDS);
            watchdog.check();
            return next;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TrainingFailedException("interrupted while training", e);
        }
    }

    /** Runs {@code work} on the training thread and waits for it, within the job's limits. */
    private <T> T onTrainingThread(Supplier<T> work) {
        Future<T> running = trainingThread.submit(work::get);
        try {
            return watchdog.await(running);
        } finally {
            running.cancel(true); // a step still running (a hung reward) is interrupted, not waited for
        }
    }

    private boolean turnBarrier() {
        return spec.config().batching().turnBarrier();
    }

    /** Routes each rollout's turns to its wave's barrier, and the engine's way once it ends. */
    private final class WaveGenerator implements Generator {
        private final Generator direct;

        WaveGenerator(Generator direct) {
            this.direct = direct;
        }

        @Override
        public CompletionStage<Generation> generate(GenerationRequest request) {
            return waves.getOrDefault(request.trajectoryId(), direct).generate(request);
        }

        @Override
        public void release(String trajectoryId) {
            Generator wave = waves.remove(trajectoryId);
            (wave == null ? direct : wave).release(trajectoryId);
        }
    }

    private void publish(AdapterWeights adapter) {
        engine.engine().setAdapter(adapter);
        engine.engine().whenAdapterAtLeast(adapter.version()).join();
    }
}
