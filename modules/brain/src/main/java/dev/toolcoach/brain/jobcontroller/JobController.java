package dev.toolcoach.brain.jobcontroller;

import dev.toolcoach.cluster.node.NodeSettings;
import dev.toolcoach.model.ComputeDevice;
import akka.actor.AbstractExtensionId;
import akka.actor.ExtendedActorSystem;
import akka.actor.ExtensionIdProvider;
import akka.actor.Extension;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.actor.typed.javadsl.Adapter;
import akka.cluster.typed.Cluster;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.toolcoach.brain.endpoint.OutboundEndpoints;
import dev.toolcoach.brain.taskjob.EvalRecord;
import dev.toolcoach.brain.taskjob.JobListener;
import dev.toolcoach.brain.taskjob.TrainingJobSpec;
import dev.toolcoach.brain.taskjob.TaskTrainingJob;
import dev.toolcoach.cluster.node.JobNode;
import dev.toolcoach.cluster.node.NodeRole;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.typesafe.config.Config;
import dev.toolcoach.brain.TrainingConfig;
import dev.toolcoach.brain.run.RunFolderLock;
import dev.toolcoach.brain.run.ConsoleProgress;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.RunRecorder;
import dev.toolcoach.brain.run.StepLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * Runs task training jobs on a coach node, one at a time, on the node's own cluster: the job's coach and
 * learner live here, the cluster's athlete and tool nodes roll out. A job is written down in its run folder
 * ({@code job.json}: the request and its state) before it starts, so a coach node that was killed resumes
 * every job it finds still {@code running} when it starts again, from the job's last checkpoint. Every job ends:
 * finished, failed (whatever it threw, {@code Error}s included, or its training run passed a limit of
 * {@code toolcoach.jobs}: {@code job-timeout}, {@code stall-timeout}) or cancelled ({@link #cancel}). A job holds its
 * run folder's {@link RunFolderLock} while it runs, so a folder another job uses is refused.
 */
public final class JobController implements Extension {

    /** One controller per node. */
    public static final Id ID = new Id();

    public static final class Id extends AbstractExtensionId<JobController> implements ExtensionIdProvider {
        private Id() {
        }

        @Override
        public JobController createExtension(ExtendedActorSystem system) {
            return new JobController(system);
        }

        @Override
        public Id lookup() {
            return ID;
        }
    }

    private static final Logger LOG = LoggerFactory.getLogger(JobController.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String JOB_FILE = "job.json";

    /**
     * Resumes in a row in which a job made no new learner step before its node went down again: past this, the job is a
     * poison (it takes its node down on every start) and is marked failed instead of resumed again.
     */
    static final int MAX_RESUMES_WITHOUT_PROGRESS = 3;

    /**
     * What {@code job.json} holds.
     *
     * @param resumes          resumes in a row without a new learner step (0 for a job as submitted)
     * @param stepAtResume     the run's last recorded step when it was last resumed
     */
    record JobRecord(TrainingJobSpec request, String state, String error, int resumes, @JsonProperty("step_at_resume") long stepAtResume) {
    }

    /** A job could not be accepted; the message says why (a bad request, or a job already running). */
    public static final class Rejected extends RuntimeException {
        private final boolean conflict;

        Rejected(String message, boolean conflict) {
            super(message);
            this.conflict = conflict;
        }

        public boolean conflict() {
            return conflict;
        }
    }

    private final ActorSystem<SpawnProtocol.Command> system;
    private final Path runsDir;
    private final boolean runsJobs;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "job-controller");
        t.setDaemon(true);
        return t;
    });
    private final TrainingConfig.Limits limits;
    private final OutboundEndpoints endpoints;
    /** This node's: the learner and the evaluations of its jobs compute there. */
    private final ComputeDevice device;
    private final JobWork work;
    private volatile Tracker current;

    /** What running a job is: a task training job on this node's cluster; tests give a job body of their own. */
    @FunctionalInterface
    interface JobWork {
        void run(TrainingJobSpec spec, JobListener listener, RunFolderLock lock);
    }

    JobController(ExtendedActorSystem classic) {
        this(classic, null);
    }

    @SuppressWarnings("unchecked") // every ToolCoach node's guardian speaks SpawnProtocol (NodeGuardian)
    JobController(ExtendedActorSystem classic, JobWork work) {
        this.system = (ActorSystem<SpawnProtocol.Command>) (ActorSystem<?>) Adapter.toTyped(classic);
        this.work = work != null ? work
                : (options, listener, lock) -> TaskTrainingJob.run(options, Optional.of(JobNode.attach(system)), listener, lock);
        Config jobs = classic.settings().config().getConfig("toolcoach.jobs");
        this.runsDir = Path.of(jobs.getString("runs-dir"));
        this.limits = new TrainingConfig.Limits(jobs.getDuration("job-timeout"), jobs.getDuration("stall-timeout"),
                jobs.getInt("max-redispatches"));
        this.endpoints = OutboundEndpoints.fromConfig(jobs);
        this.device = NodeSettings.computeDevice(classic.settings().config());
        Cluster cluster = Cluster.get(system);
        this.runsJobs = classic.settings().config().getBoolean("toolcoach.jobs.controller")
                && cluster.selfMember().hasRole(NodeRole.COACH.roleName()) && cluster.selfMember().hasRole(NodeRole.LEARNER.roleName());
        if (runsJobs) {
            JobStateMetrics.get(classic).follow(this::status);
            resumeUnfinished();
        }
    }

    /** Whether this node runs jobs (it has the coach and learner roles, and {@code toolcoach.jobs.controller} is on). */
    public boolean runsJobs() {
        return runsJobs;
    }

    /**
     * Starts a job.
     *
     * @throws Rejected when the request is invalid or a job is already running
     */
    public synchronized JobStatus submit(TrainingJobSpec spec) {
        return submit(spec, 0, 0);
    }

    private synchronized JobStatus submit(TrainingJobSpec requested, int resumes, long stepAtResume) {
        if (!runsJobs) {
            throw new Rejected("this node does not run jobs: it needs the coach and learner roles and toolcoach.jobs.controller = on", false);
        }
        if (current != null && current.state.equals("running")) {
            throw new Rejected("job " + current.name + " is running; one job at a time", true);
        }
        TrainingJobSpec spec = checked(requested);
        String name = spec.name();
        RunFolderLock lock;
        try {
            lock = RunFolderLock.acquire(spec.runDir());
        } catch (RunFolderLock.InUse e) {
            throw new Rejected(e.getMessage(), true);
        } catch (UncheckedIOException e) {
            throw new Rejected(e.getMessage(), false);
        }
        Tracker tracker = new Tracker(name, spec.taskLabel(), spec.recipe().grpo().steps(), spec.runDir());
        write(spec.runDir(), new JobRecord(spec, "running", null, resumes, stepAtResume));
        current = tracker;
        JobStatus accepted = tracker.status(); // before the job starts: it may end at once and show its final state
        runner.execute(() -> run(spec, tracker, lock));
        LOG.info("job {} accepted: task {}, run folder {}", name, spec.taskLabel(), spec.runDir());
        return accepted;
    }

    /** The spec with this node's endpoints and limits, checked before anything runs. */
    private TrainingJobSpec checked(TrainingJobSpec requested) {
        try {
            TrainingJobSpec spec = requested.toBuilder().endpoints(endpoints).limits(limits).device(device).build();
            TaskTrainingJob.validateOnNode(spec);
            return spec;
        } catch (IllegalArgumentException e) {
            throw new Rejected(e.getMessage(), false);
        }
    }

    /** The current job, or the last one; empty before any. */
    public Optional<JobStatus> status() {
        Tracker t = current;
        return t == null ? Optional.empty() : Optional.of(t.status());
    }

    /** The current (or last) job's learner steps, its earlier sessions' included; empty before any. */
    public List<StepLine> steps() {
        Tracker t = current;
        return t == null ? List.of() : t.steps();
    }

    /**
     * Cancels the running job {@code name}: its thread is interrupted, which ends its training run (the job's actors
     * stop, its training thread is interrupted) or, in another phase, ends it when that phase is over. The job then
     * shows {@code cancelled}; its run folder keeps its checkpoints, and a new submit of the same name resumes it.
     *
     * @return the job's status (phase {@code cancelling} until it has stopped), or empty when no job of that name runs
     */
    public synchronized Optional<JobStatus> cancel(String name) {
        Tracker t = current;
        if (t == null || !t.name.equals(name) || !t.state.equals("running")) return Optional.empty();
        if (t.cancelRequested) return Optional.of(t.status());
        t.cancelRequested = true;
        t.phase = "cancelling";
        LOG.info("job {}: cancel requested", name);
        JobStatus cancelling = t.status(); // before the interrupt: the job may end at once and show its final state
        Thread worker = t.worker;
        if (worker != null) worker.interrupt(); // else the job sees the request when it starts
        return Optional.of(cancelling);
    }

    /** Runs on the controller's thread; whatever the job throws, it ends with a state, and the lock is released. */
    private void run(TrainingJobSpec spec, Tracker tracker, RunFolderLock lock) {
        tracker.worker = Thread.currentThread();
        try (lock) {
            if (tracker.cancelRequested) throw new CancellationException("cancelled before it started");
            work.run(spec, tracker, lock);
            end(tracker, spec, "finished", null);
        } catch (Throwable e) { // an Error too: a job left "running" would refuse every later submit
            String why = e.getMessage() != null ? e.getMessage() : e.toString();
            if (tracker.cancelRequested) {
                LOG.info("job {} cancelled ({})", tracker.name, why);
                end(tracker, spec, "cancelled", "cancelled by request");
            } else {
                LOG.error("job {} failed: {}", tracker.name, why, e);
                end(tracker, spec, "failed", why);
            }
        } finally {
            tracker.worker = null;
            Thread.interrupted(); // a cancel that came as the job ended must not reach the next job
        }
    }

    private static void end(Tracker tracker, TrainingJobSpec spec, String state, String why) {
        write(spec.runDir(), new JobRecord(spec, state, why, 0, 0));
        tracker.end(state, why);
    }

    private void resumeUnfinished() {
        if (!Files.isDirectory(runsDir)) return;
        try (Stream<Path> runs = Files.list(runsDir)) {
            for (Path file : runs.map(r -> r.resolve(JOB_FILE)).filter(Files::isRegularFile).sorted().toList()) {
                JobRecord record = JSON.readValue(file.toFile(), JobRecord.class);
                if (record.state().equals("running")) {
                    long step = RunRecorder.read(file.getParent()).stream().mapToLong(StepLine::step).max().orElse(0);
                    int resumes = step > record.stepAtResume() ? 1 : record.resumes() + 1;
                    if (resumes > MAX_RESUMES_WITHOUT_PROGRESS) {
                        String why = "its node went down with it " + resumes + " times in a row without a new learner step: "
                                + "not resumed again (submit it again to retry)";
                        LOG.error("job {} failed: {}", record.request().name(), why);
                        write(file.getParent(), new JobRecord(record.request(), "failed", why, resumes, step));
                        continue;
                    }
                    LOG.info("resuming job {} (interrupted while running; resume {} since its last new step)", record.request().name(), resumes);
                    // the run is the folder its job.json is in, wherever the node's runs folder has moved since
                    submit(record.request().toBuilder().runDir(file.getParent()).build(), resumes, step);
                    return;
                }
            }
        } catch (IOException | Rejected e) {
            LOG.error("cannot resume the unfinished jobs under {}: {}", runsDir, e.getMessage());
        }
    }

    private static void write(Path runDir, JobRecord record) {
        try {
            Files.createDirectories(runDir);
            Path tmp = runDir.resolve(JOB_FILE + ".tmp");
            JSON.writeValue(tmp.toFile(), record);
            Files.move(tmp, runDir.resolve(JOB_FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.error("cannot write {} in {}: {}", JOB_FILE, runDir, e.getMessage());
        }
    }

    /** Follows one job's progress for {@code GET /jobs}. */
    private static final class Tracker implements JobListener {
        final String name;
        final String task;
        final long totalSteps;
        final Path runDir;
        private final Progress progress;
        private final List<StepLine> steps = new ArrayList<>();
        private final List<HeldOutLine> heldOut = new ArrayList<>();
        volatile String state = "running";
        volatile String phase = "start";
        volatile StepLine lastStep;
        volatile String error;
        volatile boolean cancelRequested;
        volatile Thread worker;
        final Map<String, EvalRecord> evaluations = new LinkedHashMap<>();

        Tracker(String name, String task, long totalSteps, Path runDir) {
            this.name = name;
            this.task = task;
            this.totalSteps = totalSteps;
            this.runDir = runDir;
            this.progress = new ConsoleProgress(name, System.err, false);
        }

        /** A cancelled job stops at the next phase at the latest (evaluation and warm-up do not watch interrupts). */
        @Override
        public void phase(String p) {
            if (cancelRequested) throw new CancellationException("cancelled before phase " + p);
            phase = p;
        }

        @Override
        public synchronized void evaluated(String evaluation, EvalRecord record) {
            evaluations.put(evaluation, record);
        }

        /** The node's log (its stderr) shows each long piece of the job as a line every 30 s and when it ends. */
        @Override
        public Progress progress() {
            return progress;
        }

        /** The run folder's steps so far: a resumed job's curves start where its first session's did. */
        @Override
        public synchronized void trainingStarted(long total, long done) {
            steps.clear();
            steps.addAll(RunRecorder.read(runDir));
            heldOut.clear();
            heldOut.addAll(RunRecorder.readHeldOut(runDir));
        }

        @Override
        public synchronized void step(StepLine line) {
            lastStep = line;
            steps.removeIf(s -> s.step() >= line.step()); // a step redone after a resume replaces its first record
            steps.add(line);
            heldOut.removeIf(h -> h.step() >= line.step());
        }

        @Override
        public synchronized void heldOut(HeldOutLine line) {
            heldOut.add(line);
        }

        synchronized List<StepLine> steps() {
            return List.copyOf(steps);
        }

        void end(String finalState, String why) {
            error = why;
            phase = "done";
            state = finalState;
        }

        synchronized JobStatus status() {
            return new JobStatus(name, task, state, phase, totalSteps, lastStep, Collections.unmodifiableMap(new LinkedHashMap<>(evaluations)),
                    List.copyOf(heldOut), error);
        }
    }
}
