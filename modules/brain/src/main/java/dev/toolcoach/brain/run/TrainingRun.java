package dev.toolcoach.brain.run;

import dev.toolcoach.model.Precision;
import dev.toolcoach.model.ComputeDevice;
import akka.actor.typed.ActorRef;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.cluster.coach.CoachActor;
import dev.toolcoach.cluster.coach.CoachSettings;
import dev.toolcoach.cluster.coach.CoachSingleton;
import dev.toolcoach.cluster.coach.CursorCodec;
import dev.toolcoach.cluster.learner.LearnerActor;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.learner.LearnerJob;
import dev.toolcoach.cluster.learner.LearnerListener;
import dev.toolcoach.cluster.learner.LearnerSettings;
import dev.toolcoach.cluster.learner.LearnerSingleton;
import dev.toolcoach.cluster.learner.LearnerSteps;
import dev.toolcoach.cluster.learner.StepProbe;
import dev.toolcoach.cluster.learner.StepReport;
import dev.toolcoach.cluster.job.GroupPlan;
import dev.toolcoach.cluster.job.JobAnnouncer;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.protocol.JobProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol.AdaptSpec;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.weights.AdapterPublisher;
import dev.toolcoach.cluster.weights.WeightsChunker;
import dev.toolcoach.learn.checkpoint.CheckpointStore;
import dev.toolcoach.model.io.ModelDigest;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.core.PeriodicCheckpoints;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.rewards.Reward;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.BuiltinSuites;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One training job: the coach and learner singletons, the adapter publisher and the job's announcer,
 * started on a node in this JVM — a node with every role (the embedded mode: its own tool servers and
 * athletes, on a one-node cluster) or a coach-and-learner node joining a running cluster, whose athlete
 * nodes find the job through its announcer. Either way the actors are the same. The learner trains a LoRA
 * adapter on its own copy of the base model and publishes every version to the athletes' engines. A job
 * resumes from the newest good checkpoint in its checkpoint folder, if there is one. A watchdog ends the run as failed
 * when it passes its job timeout or no step completes within its stall timeout ({@link TrainingConfig.Limits}); an
 * interrupt of the thread that runs it (a cancel) ends it the same way. Either way the job's actors are stopped and its
 * training thread interrupted before the run returns.
 */
public final class TrainingRun {
    private static final Logger LOG = LoggerFactory.getLogger(TrainingRun.class);
    /** Intra-op threads of training steps (warm-up SFT and the learner's): one, see {@link OpThreads#with}. */
    public static final int LEARNER_INTRA_OP_THREADS = 1;
    private static final Duration DEADLINE_CHECK = Duration.ofSeconds(1);
    private static final Duration CATCH_UP = Duration.ofSeconds(2);

    /**
     * One training run. Built with {@link #builder()}; the defaults are given here once, the rest is required.
     *
     * @param config        the job's settings (default {@link TrainingConfig#defaults()})
     * @param modelDir      the base model (HF folder), frozen during the job
     * @param actionFormat  how the agent is asked to act
     * @param suites        the built-in tool suites the agent uses, each served by a tool server actor
     * @param toolOptions   options of the built-in suites, e.g. the email suite's mailboxes (default
     *                      {@link BuiltinSuites.Options#defaults()})
     * @param dataset       the training queries, in order; the job walks them and wraps
     * @param steps         learner steps the job trains (groups = steps × groups per step)
     * @param reward        scores each complete group
     * @param checkpointDir where checkpoints go and where a resumed job finds them
     * @param jobId         names the job on the cluster (its coach and learner singletons); a resumed job keeps it
     * @param adapt         TILE's ADAPT for the athletes' tool calls (default empty: off)
     * @param startAdapter  the adapter a new job starts from, whose LoRA settings it trains with (a user's PEFT adapter
     *                      continued; default empty: a fresh LoRA of the config's settings); a resumed job starts from its
     *                      checkpoint instead
     * @param probe         run by the learner after the steps it is due at, before the next (a held-out evaluation every
     *                      N steps; default empty: none)
     */
    public record Spec(TrainingConfig config, Path modelDir, ActionFormat actionFormat, List<String> suites,
                       BuiltinSuites.Options toolOptions, List<TaskExample> dataset, int steps, Reward reward,
                       Path checkpointDir, String jobId, Optional<AdaptSpec> adapt, Optional<AdapterWeights> startAdapter,
                       Optional<StepProbe> probe) {

        public Spec {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(modelDir, "modelDir");
            Objects.requireNonNull(actionFormat, "actionFormat");
            suites = List.copyOf(Objects.requireNonNull(suites, "suites"));
            Objects.requireNonNull(toolOptions, "toolOptions");
            dataset = List.copyOf(Objects.requireNonNull(dataset, "dataset"));
            Objects.requireNonNull(reward, "reward");
            Objects.requireNonNull(checkpointDir, "checkpointDir");
            Objects.requireNonNull(jobId, "jobId");
            Objects.requireNonNull(adapt, "adapt");
            Objects.requireNonNull(startAdapter, "startAdapter");
            Objects.requireNonNull(probe, "probe");
            if (dataset.isEmpty()) throw new IllegalArgumentException("the training dataset is empty");
            if (steps < 1) throw new IllegalArgumentException("steps must be at least 1, was " + steps);
        }

        /** A builder at the defaults. */
        public static Builder builder() {
            return new Builder();
        }

        /** A builder holding this spec's values. */
        public Builder toBuilder() {
            Builder b = new Builder().config(config).modelDir(modelDir).actionFormat(actionFormat).suites(suites)
                    .toolOptions(toolOptions).dataset(dataset).steps(steps).reward(reward).checkpointDir(checkpointDir).jobId(jobId);
            b.adapt = adapt;
            b.startAdapter = startAdapter;
            b.probe = probe;
            return b;
        }

        /** One setter per value; the defaults are those documented on {@link Spec}. */
        public static final class Builder {
            private TrainingConfig config = TrainingConfig.defaults();
            private Path modelDir;
            private ActionFormat actionFormat;
            private List<String> suites;
            private BuiltinSuites.Options toolOptions = BuiltinSuites.Options.defaults();
            private List<TaskExample> dataset;
            private int steps;
            private Reward reward;
            private Path checkpointDir;
            private String jobId;
            private Optional<AdaptSpec> adapt = Optional.empty();
            private Optional<AdapterWeights> startAdapter = Optional.empty();
            private Optional<StepProbe> probe = Optional.empty();

            private Builder() {
            }

            public Builder config(TrainingConfig c) {
                this.config = c;
                return this;
            }

            public Builder modelDir(Path dir) {
                this.modelDir = dir;
                return this;
            }

            public Builder actionFormat(ActionFormat format) {
                this.actionFormat = format;
                return this;
            }

            public Builder suites(List<String> names) {
                this.suites = names;
                return this;
            }

            public Builder toolOptions(BuiltinSuites.Options options) {
                this.toolOptions = options;
                return this;
            }

            public Builder dataset(List<TaskExample> queries) {
                this.dataset = queries;
                return this;
            }

            public Builder steps(int count) {
                this.steps = count;
                return this;
            }

            public Builder reward(Reward r) {
                this.reward = r;
                return this;
            }

            public Builder checkpointDir(Path dir) {
                this.checkpointDir = dir;
                return this;
            }

            public Builder jobId(String id) {
                this.jobId = id;
                return this;
            }

            /** ADAPT on, with these settings. */
            public Builder adapt(AdaptSpec spec) {
                this.adapt = Optional.of(spec);
                return this;
            }

            /** Starts a new job from this adapter instead of a fresh LoRA. */
            public Builder startAdapter(AdapterWeights adapter) {
                this.startAdapter = Optional.of(adapter);
                return this;
            }

            /** Runs {@code probe} where it is due. */
            public Builder probe(StepProbe probe) {
                this.probe = Optional.of(probe);
                return this;
            }

            /** @throws IllegalArgumentException or NullPointerException naming the value that is out of range or missing */
            public Spec build() {
                return new Spec(config, modelDir, actionFormat, suites, toolOptions, dataset, steps, reward, checkpointDir, jobId, adapt,
                        startAdapter, probe);
            }
        }
    }

    /**
     * What the job ended with.
     *
     * @param adapter  the last adapter version the learner holds
     * @param accounts the learner's accounts
     * @param resumedFromVersion the adapter version a resumed job started from, -1 for a new job
     */
    public record Result(AdapterWeights adapter, LearnerAccounts accounts, int resumedFromVersion) {
    }

    private TrainingRun() {
    }

    /** Runs the job embedded: every role on a one-node cluster started for it, stopped after it. */
    public static Result runEmbedded(Spec spec, Consumer<StepReport> onStep) {
        // a job of no suite (each example's own tools, run by nothing) has nothing for a tool node to host
        try (JobNode node = spec.suites().isEmpty() ? JobNode.allRolesBut(embeddedConfig(spec), NodeRole.TOOL)
                : JobNode.allRoles(embeddedConfig(spec))) {
            return run(spec, node, onStep);
        }
    }

    /**
     * Runs the job to its end on {@code node} and returns its result.
     *
     * @param onStep hears every learner step, on the learner's thread
     * @throws TrainingFailedException when the job cannot go on (the reward is unavailable, a step failed, the run folder
     *                                 cannot be written), passed a limit, or was interrupted
     */
    public static Result run(Spec spec, JobNode node, Consumer<StepReport> onStep) {
        TrainingConfig config = spec.config();
        if (config.batching().turnBarrier()) {
            throw new IllegalArgumentException("the turn barrier runs in the synchronous loop of an embedded job "
                    + "(train --mode turn-barrier), not through a cluster's actors");
        }
        ExecutorService training = trainingThread();
        // shared: the athletes this node hosts serve the same base through their engine (JobResources, LocalPolicy.load)
        try (PolicyModel learnerModel = ModelLoader.shared(spec.modelDir(), null, config.device())) {
            JobLearner learner = JobLearner.open(spec, learnerModel);
            LearnerCore core = learner.core();
            try {
                // not the management URL: a coach restarted under a running job resumes it before its server is bound
                LOG.info("job {} starts on node {}", spec.jobId(), node.system().address());
                Outcome outcome = new Outcome(onStep, new JobWatchdog(config.limits(), System::nanoTime));
                JobActors actors = start(node, spec, core, learner.checkpoints(), learner.cursor(), outcome, training);
                LearnerAccounts accounts;
                try {
                    accounts = outcome.await();
                } catch (TrainingFailedException e) {
                    training.shutdownNow(); // a step still running (a hung reward) is interrupted, not waited for
                    throw e;
                } finally {
                    actors.end();
                }
                return new Result(core.adapterWeights(), accounts, learner.resumedFromVersion());
            } finally {
                training.shutdown();
                awaitQuietly(training);
                core.close();
            }
        }
    }

    /**
     * The embedded node hosts the job's tool suites and as many athletes as the job asks for; it runs this job
     * only, so it takes no submitted ones (and resumes none from the runs folder).
     */
    private static Config embeddedConfig(Spec spec) {
        return ConfigFactory.parseMap(Map.of(
                "toolcoach.jobs.controller", "off",
                "toolcoach.tools.suites", spec.suites(),
                "toolcoach.tools.email.mailboxes", spec.toolOptions().mailboxes().stream().map(Path::toString).toList(),
                "toolcoach.tools.skills.dir", spec.toolOptions().skills() == null ? "" : spec.toolOptions().skills().toAbsolutePath().toString(),
                "toolcoach.tools.hpo.data-dir", spec.toolOptions().hpoData() == null ? "" : spec.toolOptions().hpoData().toAbsolutePath().toString(),
                "toolcoach.athlete.actors-per-node", spec.config().athletes(),
                // the embedded athletes compute where the learner does, so they share its base
                ComputeDevice.CONFIG_KEY, spec.config().device().name(),
                Precision.CONFIG_KEY, spec.config().device().precision().label()));
    }

    /** The job's actors the run ends itself (the coach and learner singletons stay, idle, on a long-lived node). */
    private record JobActors(ActorRef<AdapterPublisherProtocol.Command> publisher, ActorRef<JobProtocol.Command> announcer) {
        void end() {
            announcer.tell(JobAnnouncer.End.INSTANCE);
            publisher.tell(AdapterPublisher.Stop.INSTANCE);
        }
    }

    private static JobActors start(JobNode node, Spec spec, LearnerCore core, PeriodicCheckpoints checkpoints,
                              Optional<CoachCursor> cursor, Outcome outcome, ExecutorService training) {
        TrainingConfig config = spec.config();
        TrainingConfig.Batching batching = config.batching();
        CoachSettings coachSettings = coachSettings(spec);
        GroupPlan plan = coachSettings.plan();
        ActorRef<CoachProtocol.Command> coach = CoachSingleton.init(node.system(), spec.jobId(),
                CoachActor.create(coachSettings, spec.dataset(), cursor, Clock.systemUTC(), DEADLINE_CHECK));
        ActorRef<AdapterPublisherProtocol.Command> publisher = node.spawn(
                AdapterPublisher.create(WeightsChunker.DEFAULT_MAX_CHUNK_BYTES), "adapter-publisher-" + actorName(spec.jobId()));
        LearnerJob learnerJob = new LearnerJob(LearnerSettings.of(plan, cursor), core, config.algorithm(), config.optimisation().sftRewardThreshold(), spec.reward(),
                TaskRewards.contexts(spec.dataset()), coach, publisher, Optional.of(checkpoints), spec.probe(), outcome, training);
        LearnerSingleton.init(node.system(), spec.jobId(), LearnerActor.create(learnerJob));
        // announced last: athletes that find the job find its coach and learner already there
        ActorRef<JobProtocol.Command> announcer = node.spawn(JobAnnouncer.create(new JobSpec(spec.jobId(),
                spec.modelDir().toAbsolutePath(), ModelDigest.of(spec.modelDir()), spec.actionFormat(), spec.suites(), config.rollouts(), plan.maxPolicyLag(),
                spec.startAdapter().isPresent() ? 1 : 0, batching.rolloutTimeout(), config.seed(), spec.adapt())), "job-" + actorName(spec.jobId()));
        return new JobActors(publisher, announcer);
    }

    private static String actorName(String jobId) {
        return URLEncoder.encode(jobId, StandardCharsets.UTF_8);
    }

    /** How the job's coach runs it, with the one plan of groups the coach opens and the learner batches. */
    static CoachSettings coachSettings(Spec spec) {
        TrainingConfig config = spec.config();
        TrainingConfig.Batching batching = config.batching();
        GroupPlan plan = GroupPlan.of(batching.groupSize(), batching.groupsPerStep(), batching.maxPolicyLag(), spec.steps(),
                batching.oversampling());
        return new CoachSettings(plan, batching.rolloutTimeout(), config.limits().maxRedispatches());
    }

    /**
     * The job's learner on its copy of the base: a LoRA adapter resumed from the newest good checkpoint in the job's
     * checkpoint folder (with the coach's cursor saved beside it), else started from the spec's start adapter, else fresh.
     *
     * @param resumedFromVersion the adapter version a resumed job starts from, -1 for a new job
     */
    record JobLearner(LearnerCore core, PeriodicCheckpoints checkpoints, Optional<CoachCursor> cursor, int resumedFromVersion) {
        static JobLearner open(Spec spec, PolicyModel model) {
            TrainingConfig config = spec.config();
            LoraConfig lora = spec.startAdapter().map(AdapterWeights::config).orElse(config.optimisation().lora());
            LearnerCore core = new LearnerCore(model.transformer(), new LoraWeights(model.addLora(lora, config.seed())),
                    learnerConfig(config));
            PeriodicCheckpoints checkpoints = new PeriodicCheckpoints(new CheckpointStore(spec.checkpointDir(), 3),
                    config.checkpointEvery());
            Optional<CoachCursor> cursor = checkpoints.resume(core).map(CursorCodec::decode);
            if (cursor.isEmpty()) spec.startAdapter().ifPresent(core::startFrom);
            cursor.ifPresent(c -> LOG.info("resuming from the checkpoint after job step {} (learner step {}, adapter version {})",
                    LearnerSteps.jobStep(c.groupsTrained(), config.batching().groupsPerStep()), core.step(), core.version()));
            return new JobLearner(core, checkpoints, cursor, cursor.isPresent() ? core.version() : -1);
        }
    }

    /** The learner's optimiser for a job: the one mapping of a training config to it (the synchronous loop uses it too). */
    static LearnerConfig learnerConfig(TrainingConfig config) {
        LearnerConfig defaults = LearnerConfig.defaults(config.optimisation().learningRate());
        return new LearnerConfig(defaults.grpo().withBeta(config.optimisation().klBeta()).withTemperature((float) config.rollouts().temperature())
                .withEntropyBonus(config.optimisation().entropyBonus()),
                defaults.dpo(), defaults.optimiser(),
                defaults.schedule(), defaults.maxGradNorm(), config.optimisation().microBatchRows(), config.seed());
    }

    /** The thread a job's scoring, steps, checkpoints and probes run on, one at a time, with its intra-op threads. */
    static ExecutorService trainingThread() {
        return Executors.newSingleThreadExecutor(OpThreads.threadFactory("learner-training", LEARNER_INTRA_OP_THREADS));
    }

    static void awaitQuietly(ExecutorService executor) {
        try {
            if (!executor.awaitTermination(1, TimeUnit.MINUTES)) LOG.warn("the training thread did not stop within a minute");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why a job stops when its step listener fails: its records would otherwise silently stop matching its training. */
    static IllegalStateException recordingFailed(StepReport report, RuntimeException failure) {
        return new IllegalStateException("recording step " + report.step() + " failed: " + failure.getMessage(), failure);
    }

    /**
     * The learner's listener: passes steps on and completes when the job ends. A step listener that fails (the run
     * folder cannot be written) fails the job ({@link #recordingFailed}).
     */
    private static final class Outcome implements LearnerListener {
        private final Consumer<StepReport> onStep;
        private final JobWatchdog watchdog;
        private final CompletableFuture<LearnerAccounts> done = new CompletableFuture<>();

        Outcome(Consumer<StepReport> onStep, JobWatchdog watchdog) {
            this.onStep = onStep;
            this.watchdog = watchdog;
        }

        @Override
        public void stepDone(StepReport report) {
            watchdog.stepDone();
            try {
                onStep.accept(report);
            } catch (RuntimeException e) {
                LOG.error("the step listener failed on step {}", report.step(), e);
                done.completeExceptionally(recordingFailed(report, e));
            }
        }

        @Override
        public void finished(LearnerAccounts accounts) {
            done.complete(accounts);
        }

        @Override
        public void failed(Throwable cause) {
            done.completeExceptionally(cause);
        }

        LearnerAccounts await() {
            return watchdog.await(done);
        }
    }
}
