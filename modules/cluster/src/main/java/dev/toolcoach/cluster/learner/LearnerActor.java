package dev.toolcoach.cluster.learner;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.japi.function.Function2;
import dev.toolcoach.cluster.coach.CursorCodec;
import dev.toolcoach.cluster.metrics.ToolUseMetrics;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.DropGivenUpGroup;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.GetLearnerStatus;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupTrained;
import dev.toolcoach.cluster.protocol.LearnerProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.LearnerStarted;
import dev.toolcoach.cluster.protocol.CoachProtocol.RolloutReceived;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.weights.AdapterPublisher;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.trace.tooluse.ToolUse;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * The learner: a thin shell over {@link LearnerSteps} (the step state and every count, on this actor's thread),
 * {@link GroupScorer} and {@link TrainingStep} (run on the job's training thread; they return what they did). It acks every trace as
 * soon as it holds it and tells the coach ({@link RolloutReceived}, duplicates too); scores each group as it completes
 * and closes groups with the coach ({@link GroupTrained}, {@link GroupDropped}: with dynamic sampling a group without
 * signal is dropped when scored, and the coach refills the batch with a fresh query); scores and runs one step at a time
 * on the job's training thread, so traces keep being acked while it trains; publishes each new adapter version; and, when a
 * checkpoint is due, saves the learner with the coach's cursor taken after the step's groups closed; then runs the job's
 * {@link StepProbe} where it is due, before the next step.
 * Meant to run once per job, as a cluster singleton on the node that owns the device.
 */
public final class LearnerActor extends AbstractBehavior<LearnerProtocol.Command> {

    private static final Duration CURSOR_TIMEOUT = Duration.ofSeconds(30);

    private record GroupScored(GroupScorer.Score score, Throwable failure) implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
    }

    private record StepFinished(StepResult result, Throwable failure) implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
    }

    private record CursorReceived(CoachCursor cursor, long jobStep, Throwable failure) implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
    }

    private record CheckpointSaved(Optional<Path> file, long jobStep, Throwable failure) implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
    }

    private record ProbeDone(long jobStep, Throwable failure) implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
    }

    private enum RunEnded implements LearnerProtocol.Local, NoSerializationVerificationNeeded {
        INSTANCE
    }

    private final LearnerJob job;
    private final LearnerSteps steps;
    private final GroupScorer scorer;
    private final TrainingStep training;
    private final LearnerMetrics metrics;

    public static Behavior<LearnerProtocol.Command> create(LearnerJob job) {
        return Behaviors.setup(context -> new LearnerActor(context, job));
    }

    private LearnerActor(ActorContext<LearnerProtocol.Command> context, LearnerJob job) {
        super(context);
        this.job = job;
        this.scorer = new GroupScorer(job.reward(), job.examples());
        this.training = new TrainingStep(job.core(), job.algorithm(), job.sftRewardThreshold());
        this.steps = new LearnerSteps(job.settings(), job.core().version(), training::hasSignal);
        this.metrics = LearnerMetrics.get(context.getSystem());
        // engines that started before this learner (or after a restore) get the adapter it holds
        publish(job.core().adapterWeights());
        job.coach().tell(new LearnerStarted(context.getSelf()));
        nextStep();
    }

    @Override
    public Receive<LearnerProtocol.Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(TraceDelivery.class, this::onTrace)
                .onMessage(DropGivenUpGroup.class, this::onGivenUp)
                .onMessage(GetLearnerStatus.class, m -> {
                    m.replyTo().tell(steps.status());
                    return this;
                })
                .onMessage(GroupScored.class, this::onGroupScored)
                .onMessage(StepFinished.class, this::onStepFinished)
                .onMessage(CursorReceived.class, this::onCursor)
                .onMessage(CheckpointSaved.class, this::onCheckpointSaved)
                .onMessage(ProbeDone.class, this::onProbeDone)
                .onMessageEquals(RunEnded.INSTANCE, this::onRunEnded)
                .build();
    }

    private Behavior<LearnerProtocol.Command> onTrace(TraceDelivery delivery) {
        String rolloutId = delivery.trace().rolloutId();
        Admission admission;
        try {
            admission = steps.offer(delivery.trace());
        } catch (IllegalArgumentException e) {
            getContext().getLog().error("trace of rollout {} cannot be grouped: {}", rolloutId, e.getMessage());
            delivery.replyTo().tell(new TraceAck(rolloutId));
            return this;
        }
        delivery.replyTo().tell(new TraceAck(rolloutId));
        job.coach().tell(new RolloutReceived(rolloutId));
        String groupId = delivery.trace().groupId();
        switch (admission) {
            case GROUP_STALE -> job.coach().tell(new GroupDropped(groupId, GroupDropped.Reason.STALE_POLICY));
            case GROUP_UNUSABLE -> job.coach().tell(new GroupDropped(groupId, GroupDropped.Reason.UNUSABLE));
            case GROUP_READY -> scoreCompleted();
            default -> {
            }
        }
        return nextStep();
    }

    /** Scores complete groups on the training thread, in completion order (its one thread keeps the order). */
    private void scoreCompleted() {
        for (CompleteGroup group : steps.takeCompleted()) {
            onTrainingThread(() -> scorer.score(group), GroupScored::new);
        }
    }

    private Behavior<LearnerProtocol.Command> onGroupScored(GroupScored scored) {
        if (scored.failure() != null) return fail(scored.failure());
        String groupId = scored.score().groupId();
        switch (steps.scored(scored.score())) {
            case NO_SIGNAL -> job.coach().tell(new GroupDropped(groupId, GroupDropped.Reason.NO_SIGNAL));
            case REWARD_FAILED -> job.coach().tell(new GroupDropped(groupId, GroupDropped.Reason.REWARD_FAILED));
            case READY -> {
            }
        }
        return nextStep();
    }

    private Behavior<LearnerProtocol.Command> onGivenUp(DropGivenUpGroup given) {
        if (!steps.giveUp(given.groupId())) return this;
        job.coach().tell(new GroupDropped(given.groupId(), GroupDropped.Reason.REDISPATCH_LIMIT));
        return nextStep();
    }

    private Behavior<LearnerProtocol.Command> nextStep() {
        LearnerSteps.Next next = steps.next();
        if (next == LearnerSteps.Nothing.INSTANCE) return this;
        if (next instanceof LearnerSteps.Train train) {
            onTrainingThread(() -> training.run(train.batch()), StepFinished::new);
        }
        publishStatus();
        if (next == LearnerSteps.Finish.INSTANCE) job.listener().finished(steps.accounts());
        return this;
    }

    private Behavior<LearnerProtocol.Command> onStepFinished(StepFinished finished) {
        if (finished.failure() != null) return fail(finished.failure());
        StepReport report = steps.stepDone(finished.result());
        long jobStep = report.step();
        for (var group : report.scored()) job.coach().tell(new GroupTrained(group.groupId(), report.version()));
        finished.result().published().ifPresent(this::publish);
        ToolUseMetrics.get(getContext().getSystem()).record(ToolUse.records(report.scored().stream()
                .flatMap(g -> g.traces().stream()).map(ScoredTrace::trace).toList(), null, null));
        job.listener().stepDone(report);
        if (job.checkpoints().isPresent() && job.checkpoints().get().due(jobStep)) {
            // asked after the step's group reports, so the cursor already has those groups closed
            getContext().ask(CoachCursor.class, job.coach(), CURSOR_TIMEOUT, GetCursor::new,
                    (cursor, failure) -> new CursorReceived(cursor, jobStep, failure));
            return this;
        }
        return probeOrNextStep(jobStep);
    }

    private Behavior<LearnerProtocol.Command> onCursor(CursorReceived received) {
        if (received.failure() != null) {
            getContext().getLog().error("no checkpoint at step {}: the coach did not give its cursor ({})",
                    job.core().step(), received.failure().toString());
            return probeOrNextStep(received.jobStep());
        }
        byte[] cursor = CursorCodec.encode(received.cursor());
        long jobStep = received.jobStep();
        onTrainingThread(() -> job.checkpoints().orElseThrow().afterBatch(job.core(), cursor, jobStep),
                (file, failure) -> new CheckpointSaved(file, jobStep, failure));
        return this;
    }

    private Behavior<LearnerProtocol.Command> onCheckpointSaved(CheckpointSaved saved) {
        if (saved.failure() != null) {
            getContext().getLog().error("checkpoint at step {} failed; training goes on", job.core().step(), saved.failure());
        } else {
            saved.file().ifPresent(f -> getContext().getLog().info("checkpoint {} (step {}, version {})", f, job.core().step(), steps.version()));
        }
        return probeOrNextStep(saved.jobStep());
    }

    /** After a step (and its checkpoint): the probe when it is due there, on the training thread, else the next step. */
    private Behavior<LearnerProtocol.Command> probeOrNextStep(long jobStep) {
        if (job.probe().isPresent() && job.probe().get().due(jobStep)) {
            StepProbe probe = job.probe().get();
            onTrainingThread(() -> {
                probe.run(jobStep, job.core().adapterWeights());
                return jobStep;
            }, (done, failure) -> new ProbeDone(jobStep, failure));
            return this;
        }
        steps.idle();
        return nextStep();
    }

    /**
     * Runs {@code work} on the job's training thread, its outcome piped back as {@code reply}. Once the job's run has
     * ended (cancelled or failed: it shuts that thread down) traces of rollouts still in flight may come; the learner
     * then stops instead of failing on them.
     */
    private <T> void onTrainingThread(Supplier<T> work, Function2<T, Throwable, LearnerProtocol.Command> reply) {
        try {
            getContext().pipeToSelf(CompletableFuture.supplyAsync(work, job.training()), reply);
        } catch (RejectedExecutionException runEnded) {
            getContext().getSelf().tell(RunEnded.INSTANCE);
        }
    }

    private Behavior<LearnerProtocol.Command> onRunEnded() {
        getContext().getLog().info("the job's run has ended (its training thread is shut down): the learner stops");
        return Behaviors.stopped();
    }

    private Behavior<LearnerProtocol.Command> onProbeDone(ProbeDone done) {
        if (done.failure() != null) {
            getContext().getLog().error("the probe after step {} failed; training goes on", done.jobStep(), done.failure());
        }
        steps.idle();
        return nextStep();
    }

    private Behavior<LearnerProtocol.Command> fail(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        getContext().getLog().error("the learner stops: {}", cause.toString());
        job.listener().failed(cause);
        return Behaviors.stopped();
    }

    private void publish(AdapterWeights adapter) {
        job.publisher().tell(new AdapterPublisher.Publish(adapter));
    }

    private void publishStatus() {
        metrics.publish(steps.status());
    }
}
