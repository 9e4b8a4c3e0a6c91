package dev.toolcoach.cluster.learner;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import dev.toolcoach.cluster.coach.CursorCodec;
import dev.toolcoach.cluster.protocol.CoachCursor;
import dev.toolcoach.cluster.protocol.GetCursor;
import dev.toolcoach.cluster.protocol.GetLearnerStatus;
import dev.toolcoach.cluster.protocol.GroupDropped;
import dev.toolcoach.cluster.protocol.GroupTrained;
import dev.toolcoach.cluster.protocol.LearnerCommand;
import dev.toolcoach.cluster.protocol.LearnerStatus;
import dev.toolcoach.cluster.protocol.RolloutReceived;
import dev.toolcoach.cluster.protocol.TraceAck;
import dev.toolcoach.cluster.protocol.TraceDelivery;
import dev.toolcoach.cluster.weights.AdapterPublisher;
import dev.toolcoach.learn.core.PolicySnapshot;
import dev.toolcoach.model.lora.AdapterWeights;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The learner: a thin shell over {@link LearnerBook} and {@link StepRunner}. It acks every trace as
 * soon as it holds it and tells the coach ({@link RolloutReceived}, duplicates too); closes groups with
 * the coach ({@link GroupTrained}, {@link GroupDropped}); runs one step at a time on the job's training
 * thread, so traces keep being acked while it trains; publishes each new adapter version; and, when a
 * checkpoint is due, saves the learner with the coach's cursor taken after the step's groups closed.
 * Meant to run once per job, as a cluster singleton on the node that owns the device.
 */
public final class LearnerActor extends AbstractBehavior<LearnerCommand> {

    private static final Duration CURSOR_TIMEOUT = Duration.ofSeconds(30);

    private record StepFinished(StepOutcome outcome, Throwable failure) implements LearnerCommand.Local, NoSerializationVerificationNeeded {
    }

    private record CursorReceived(CoachCursor cursor, long jobStep, Throwable failure) implements LearnerCommand.Local, NoSerializationVerificationNeeded {
    }

    private record CheckpointSaved(Optional<Path> file, Throwable failure) implements LearnerCommand.Local, NoSerializationVerificationNeeded {
    }

    private final LearnerJob job;
    private final LearnerLedger ledger = new LearnerLedger();
    private final LearnerBook book;
    private final StepRunner steps;
    private final LearnerMetrics metrics;
    private long version;
    private long stepsDone;
    private double lastMeanReward = Double.NaN;
    /** A step or its checkpoint is under way: the next step waits. */
    private boolean busy;
    private boolean finishReported;

    public static Behavior<LearnerCommand> create(LearnerJob job) {
        return Behaviors.setup(context -> new LearnerActor(context, job));
    }

    private LearnerActor(ActorContext<LearnerCommand> context, LearnerJob job) {
        super(context);
        this.job = job;
        this.book = new LearnerBook(job.settings(), ledger);
        this.steps = new StepRunner(new GroupScorer(job.reward(), ledger),
                new TrainingStep(job.core(), job.algorithm(), job.sftRewardThreshold(), ledger), job.examples());
        this.metrics = LearnerMetrics.get(context.getSystem());
        this.version = job.core().version();
        // engines that started before this learner (or after a restore) get the adapter it holds
        publish(job.core().snapshot());
        nextStep();
    }

    @Override
    public Receive<LearnerCommand> createReceive() {
        return newReceiveBuilder()
                .onMessage(TraceDelivery.class, this::onTrace)
                .onMessage(GetLearnerStatus.class, m -> {
                    m.replyTo().tell(status());
                    return this;
                })
                .onMessage(StepFinished.class, this::onStepFinished)
                .onMessage(CursorReceived.class, this::onCursor)
                .onMessage(CheckpointSaved.class, this::onCheckpointSaved)
                .build();
    }

    private Behavior<LearnerCommand> onTrace(TraceDelivery delivery) {
        String rolloutId = delivery.trace().rolloutId();
        Admission admission;
        try {
            admission = book.offer(delivery.trace(), version);
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
            default -> {
            }
        }
        return nextStep();
    }

    private Behavior<LearnerCommand> nextStep() {
        if (busy || finishReported) return this;
        if (book.finished()) {
            // stays up to ack late duplicates and answer status until the job's system stops
            finishReported = true;
            publishStatus();
            job.listener().finished(ledger.snapshot());
            return this;
        }
        List<CompleteGroup> batch = book.nextBatch();
        if (!batch.isEmpty()) {
            busy = true;
            getContext().pipeToSelf(CompletableFuture.supplyAsync(() -> steps.run(batch), job.training()), StepFinished::new);
        }
        publishStatus();
        return this;
    }

    private Behavior<LearnerCommand> onStepFinished(StepFinished finished) {
        if (finished.failure() != null) return fail(finished.failure());
        StepOutcome outcome = finished.outcome();
        stepsDone++;
        version = job.core().version();
        lastMeanReward = outcome.meanReward();
        for (var group : outcome.scored()) job.coach().tell(new GroupTrained(group.groupId(), version));
        for (String groupId : outcome.dropped()) job.coach().tell(new GroupDropped(groupId, GroupDropped.Reason.REWARD_FAILED));
        book.closed(outcome.scored().size() + outcome.dropped().size());
        outcome.result().flatMap(StepResult::published).ifPresent(this::publish);
        long jobStep = (book.closedGroups() + job.settings().groupsPerStep() - 1) / job.settings().groupsPerStep();
        job.listener().stepDone(new StepReport(jobStep, version, outcome, ledger.snapshot()));
        if (job.checkpoints().isPresent() && job.checkpoints().get().due(jobStep)) {
            // asked after the step's group reports, so the cursor already has those groups closed
            getContext().ask(CoachCursor.class, job.coach(), CURSOR_TIMEOUT, GetCursor::new,
                    (cursor, failure) -> new CursorReceived(cursor, jobStep, failure));
            return this;
        }
        busy = false;
        return nextStep();
    }

    private Behavior<LearnerCommand> onCursor(CursorReceived received) {
        if (received.failure() != null) {
            getContext().getLog().error("no checkpoint at step {}: the coach did not give its cursor ({})",
                    job.core().step(), received.failure().toString());
            busy = false;
            return nextStep();
        }
        byte[] cursor = CursorCodec.encode(received.cursor());
        getContext().pipeToSelf(CompletableFuture.supplyAsync(
                () -> job.checkpoints().orElseThrow().afterBatch(job.core(), cursor, received.jobStep()), job.training()),
                CheckpointSaved::new);
        return this;
    }

    private Behavior<LearnerCommand> onCheckpointSaved(CheckpointSaved saved) {
        if (saved.failure() != null) {
            getContext().getLog().error("checkpoint at step {} failed; training goes on", job.core().step(), saved.failure());
        } else {
            saved.file().ifPresent(f -> getContext().getLog().info("checkpoint {} (step {}, version {})", f, job.core().step(), version));
        }
        busy = false;
        return nextStep();
    }

    private Behavior<LearnerCommand> fail(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        getContext().getLog().error("the learner stops: {}", cause.toString());
        job.listener().failed(cause);
        return Behaviors.stopped();
    }

    private void publish(PolicySnapshot snapshot) {
        job.publisher().tell(new AdapterPublisher.Publish(new AdapterWeights(job.lora(), snapshot.version(), snapshot.tensors())));
    }

    private LearnerStatus status() {
        LearnerAccounts a = ledger.snapshot();
        return new LearnerStatus(stepsDone, version, a.received(), a.duplicates(), a.trained(), a.skippedNoSignal(),
                a.droppedStale() + a.droppedUnusable() + a.droppedRewardFailure(), book.waiting(), lastMeanReward, busy,
                book.finished());
    }

    private void publishStatus() {
        metrics.publish(status());
    }
}
