package dev.toolcoach.cluster.coach;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.DropGivenUpGroup;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetCursor;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupTrained;
import dev.toolcoach.cluster.protocol.LearnerProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.LearnerStarted;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.protocol.CoachProtocol.RolloutReceived;
import dev.toolcoach.tasks.TaskExample;

import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The coach: a thin shell over {@link RolloutScheduler} that delivers its assignments, watches the
 * athletes it gave work to, ticks deadlines and publishes its accounts to {@link CoachMetrics}. Death watch covers both an athlete that stops and one
 * whose node leaves the cluster (a watched actor on a removed node is reported terminated), so both
 * give their rollouts back. A group the scheduler gives up (a poison query) goes to the learner, which the coach
 * knows from its {@link LearnerStarted}, to be dropped. Meant to run once per job, as a cluster singleton
 * ({@link CoachSingleton}).
 */
public final class CoachActor extends AbstractBehavior<CoachProtocol.Command> {

    /** Time to look for missed deadlines. */
    private enum DeadlineTick implements CoachProtocol.Local, NoSerializationVerificationNeeded { INSTANCE }

    private final RolloutScheduler<ActorRef<AthleteProtocol.Command>> scheduler;
    private final Set<ActorRef<AthleteProtocol.Command>> watched = new HashSet<>();
    private final CoachMetrics metrics;
    private ActorRef<LearnerProtocol.Command> learner;

    /**
     * @param resumeFrom         a checkpoint's cursor to continue from, or empty for a new job
     * @param clock              the deadlines' clock
     * @param deadlineCheckEvery how often missed deadlines are looked for
     */
    public static Behavior<CoachProtocol.Command> create(CoachSettings settings, List<TaskExample> queries, Optional<CoachCursor> resumeFrom,
                                                Clock clock, Duration deadlineCheckEvery) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> {
            RolloutScheduler<ActorRef<AthleteProtocol.Command>> scheduler = resumeFrom
                    .map(cursor -> RolloutScheduler.<ActorRef<AthleteProtocol.Command>>resume(settings, queries, clock, cursor))
                    .orElseGet(() -> RolloutScheduler.start(settings, queries, clock));
            return new CoachActor(context, timers, scheduler, deadlineCheckEvery);
        }));
    }

    private CoachActor(ActorContext<CoachProtocol.Command> context, TimerScheduler<CoachProtocol.Command> timers,
                       RolloutScheduler<ActorRef<AthleteProtocol.Command>> scheduler, Duration deadlineCheckEvery) {
        super(context);
        this.scheduler = scheduler;
        metrics = CoachMetrics.get(context.getSystem());
        metrics.publish(scheduler.progress());
        timers.startTimerWithFixedDelay(DeadlineTick.INSTANCE, deadlineCheckEvery);
    }

    @Override
    public Receive<CoachProtocol.Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(RequestRollouts.class, this::onRequest)
                .onMessage(RolloutReceived.class, this::onRolloutReceived)
                .onMessage(LearnerStarted.class, m -> {
                    learner = m.learner();
                    return deliver(List.of());
                })
                .onMessage(GroupTrained.class, m -> onGroupReport(m.groupId(), () -> scheduler.groupTrained(m.groupId(), m.version())))
                .onMessage(GroupDropped.class, m -> onGroupReport(m.groupId(), () -> scheduler.groupDropped(m.groupId(), m.reason())))
                .onMessage(GetProgress.class, m -> reply(() -> m.replyTo().tell(scheduler.progress())))
                .onMessage(GetCursor.class, m -> reply(() -> m.replyTo().tell(scheduler.snapshot())))
                .onMessageEquals(DeadlineTick.INSTANCE, () -> deliver(scheduler.expireDeadlines()))
                .onSignal(Terminated.class, this::onAthleteGone)
                .onSignal(PostStop.class, stop -> {
                    metrics.clear();
                    return this;
                })
                .build();
    }

    private Behavior<CoachProtocol.Command> onRequest(RequestRollouts request) {
        if (watched.add(request.athlete())) getContext().watch(request.athlete());
        return deliver(scheduler.request(request.athlete(), request.count()));
    }

    private Behavior<CoachProtocol.Command> onRolloutReceived(RolloutReceived received) {
        RolloutScheduler.Receipt receipt = scheduler.rolloutReceived(received.rolloutId());
        if (receipt == RolloutScheduler.Receipt.UNKNOWN) {
            getContext().getLog().warn("the learner reported rollout {}, which this job never dispatched", received.rolloutId());
        }
        metrics.publish(scheduler.progress());
        return this;
    }

    private Behavior<CoachProtocol.Command> onAthleteGone(Terminated terminated) {
        ActorRef<AthleteProtocol.Command> athlete = terminated.getRef().unsafeUpcast();
        watched.remove(athlete);
        return deliver(scheduler.athleteLeft(athlete));
    }

    /** A trained or dropped report closes an open group; one for a group not open (a repeat) is counted and logged. */
    private Behavior<CoachProtocol.Command> onGroupReport(String groupId, Supplier<List<Assignment<ActorRef<AthleteProtocol.Command>>>> report) {
        if (!scheduler.isOpen(groupId)) {
            getContext().getLog().warn("the learner reported group {}, which is not open; ignored", groupId);
        }
        return deliver(report.get());
    }

    private Behavior<CoachProtocol.Command> deliver(List<Assignment<ActorRef<AthleteProtocol.Command>>> assignments) {
        for (Assignment<ActorRef<AthleteProtocol.Command>> assignment : assignments) assignment.athlete().tell(assignment.message());
        if (learner != null) {
            for (String groupId : scheduler.takeGivenUp()) {
                getContext().getLog().warn("group {} given up: a rollout of it went out too often; the learner drops it", groupId);
                learner.tell(new DropGivenUpGroup(groupId));
            }
        }
        metrics.publish(scheduler.progress());
        return this;
    }

    private Behavior<CoachProtocol.Command> reply(Runnable answer) {
        answer.run();
        return this;
    }
}
