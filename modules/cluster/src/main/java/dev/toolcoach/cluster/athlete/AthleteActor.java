package dev.toolcoach.cluster.athlete;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.Behavior;
import akka.actor.typed.SupervisorStrategy;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.ReceiveBuilder;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.EchoProtocol.Echo;
import dev.toolcoach.cluster.protocol.EchoProtocol.EchoReply;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.serialization.FrameBudget;
import dev.toolcoach.trace.Trace;

import java.util.List;
import java.util.Optional;

/**
 * One athlete: registers under {@link ServiceKeys#ATHLETES} so the coach can find it, and answers
 * {@link Echo}. Given an {@link AthleteJob}, it works one rollout at a time ({@link AthleteWork} decides
 * what comes next): asks the coach for a rollout, runs it off the actor thread ({@link RolloutRunner}),
 * sends the trace to the learner until the learner acks it (at most {@link DeliverySettings#maxAttempts()}
 * sends), then asks for the next. The coach hears that the rollout is done from the learner, never from
 * the athlete.
 */
public final class AthleteActor extends AbstractBehavior<AthleteProtocol.Command> {

    /**
     * The agent loop finished: its trace, or none when the rollout was stopped at its deadline (a failure here is a
     * broken shell: the loop turns its own failures into ERROR traces).
     */
    private record RolloutEnded(AssignRollout assignment, Optional<Trace> trace, Throwable failure)
            implements AthleteProtocol.Local, NoSerializationVerificationNeeded {
    }

    /** The learner's ack, adapted to this actor's commands. */
    private record AckReceived(TraceAck ack) implements AthleteProtocol.Local, NoSerializationVerificationNeeded {
    }

    /** No ack in time: send the trace again, or give up. */
    private enum ResendTick implements AthleteProtocol.Local, NoSerializationVerificationNeeded { INSTANCE }

    /** This actor's full address, so an echo tells which node answered. */
    private final String address;
    private final Optional<AthleteJob> job;
    private final TimerScheduler<AthleteProtocol.Command> timers;
    private final ActorRef<TraceAck> ackAdapter;
    private final Optional<AthleteWork> work;
    private final FrameBudget frame;

    /** An athlete with no job yet: it registers and answers echoes, and takes no work. */
    public static Behavior<AthleteProtocol.Command> create() {
        return create(Optional.empty());
    }

    /** An athlete that pulls work from the job's coach as soon as it starts. */
    public static Behavior<AthleteProtocol.Command> create(AthleteJob job) {
        return create(Optional.of(job));
    }

    /**
     * A failure in the shell restarts the athlete rather than stopping it: the restarted athlete asks
     * for new work, and the rollout it held comes back through the coach's deadline.
     */
    private static Behavior<AthleteProtocol.Command> create(Optional<AthleteJob> job) {
        return Behaviors.supervise(Behaviors.<AthleteProtocol.Command>setup(context -> Behaviors.withTimers(
                timers -> new AthleteActor(context, timers, job)))).onFailure(SupervisorStrategy.restart());
    }

    private AthleteActor(ActorContext<AthleteProtocol.Command> context, TimerScheduler<AthleteProtocol.Command> timers, Optional<AthleteJob> job) {
        super(context);
        this.job = job;
        this.timers = timers;
        address = ActorRefResolver.get(context.getSystem()).toSerializationFormat(context.getSelf());
        ackAdapter = context.messageAdapter(TraceAck.class, AckReceived::new);
        work = job.map(j -> new AthleteWork(j.delivery().maxAttempts()));
        frame = FrameBudget.of(context.getSystem());
        context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.ATHLETES, context.getSelf()));
        if (job.isPresent()) askForWork();
    }

    @Override
    public Receive<AthleteProtocol.Command> createReceive() {
        ReceiveBuilder<AthleteProtocol.Command> builder = newReceiveBuilder().onMessage(Echo.class, this::onEcho);
        if (job.isEmpty()) {
            return builder.onMessage(AssignRollout.class, this::onAssignmentWithoutJob).build();
        }
        return builder
                .onMessage(AssignRollout.class, this::onAssignment)
                .onMessage(RolloutEnded.class, this::onRolloutEnded)
                .onMessage(AckReceived.class, this::onAck)
                .onMessageEquals(ResendTick.INSTANCE, this::onResendTick)
                .build();
    }

    private Behavior<AthleteProtocol.Command> onEcho(Echo echo) {
        echo.replyTo().tell(new EchoReply(echo.payload(), address));
        return this;
    }

    private Behavior<AthleteProtocol.Command> onAssignmentWithoutJob(AssignRollout assignment) {
        getContext().getLog().warn("athlete {} has no job yet and cannot run rollout {}; the coach's deadline will "
                + "dispatch it again", address, assignment.rolloutId());
        return this;
    }

    private Behavior<AthleteProtocol.Command> onAssignment(AssignRollout assignment) {
        Optional<String> inHand = work().inHand();
        List<AthleteWork.Action> actions = work().assigned(assignment);
        if (actions.isEmpty()) {
            getContext().getLog().warn("rollout {} arrived while rollout {} is in hand; it waits its turn",
                    assignment.rolloutId(), inHand.orElseThrow());
        }
        return act(actions);
    }

    private Behavior<AthleteProtocol.Command> onRolloutEnded(RolloutEnded ended) {
        if (ended.failure() != null) {
            getContext().getLog().error("rollout {} failed without a trace; asking for new work (the coach's deadline "
                    + "dispatches it again)", ended.assignment().rolloutId(), ended.failure());
            return act(work().rolloutFailed());
        }
        if (ended.trace().isEmpty()) {
            // the coach's deadline has sent it to another athlete already: a trace would be a duplicate
            getContext().getLog().warn("rollout {} was stopped at its deadline; asking for new work (the coach has "
                    + "dispatched it again)", ended.assignment().rolloutId());
            return act(work().rolloutFailed());
        }
        Trace trace = ended.trace().get();
        TraceDelivery delivery = new TraceDelivery(trace, ackAdapter);
        if (!frame.fits(delivery)) {
            // Artery would drop it on the way and the learner would never ack it: refused here, counted, and the rollout
            // comes back through the coach's deadline (given up after the re-dispatch cap, if it is always this large)
            getContext().getLog().error("the trace of rollout {} is larger than a {}-byte message frame; not sent",
                    ended.assignment().rolloutId(), frame.maxBytes());
            return act(work().rolloutFailed());
        }
        return act(work().traceReady(trace));
    }

    private Behavior<AthleteProtocol.Command> onAck(AckReceived received) {
        List<AthleteWork.Action> actions = work().acked(received.ack().rolloutId());
        if (actions.isEmpty()) {
            getContext().getLog().debug("ack for rollout {}, not the trace in flight; ignored", received.ack().rolloutId());
        }
        return act(actions);
    }

    private Behavior<AthleteProtocol.Command> onResendTick() {
        return act(work().ackTimedOut());
    }

    private Behavior<AthleteProtocol.Command> act(List<AthleteWork.Action> actions) {
        for (AthleteWork.Action action : actions) {
            if (action instanceof AthleteWork.Run run) {
                start(run.assignment());
            } else if (action instanceof AthleteWork.Send send) {
                job.orElseThrow().learner().tell(new TraceDelivery(send.trace(), ackAdapter));
                if (send.first()) timers.startTimerWithFixedDelay(ResendTick.INSTANCE, job.orElseThrow().delivery().ackTimeout());
            } else if (action instanceof AthleteWork.GaveUp gaveUp) {
                getContext().getLog().error("the learner did not ack rollout {} after {} sends; giving it up (the coach's "
                        + "deadline dispatches it again)", gaveUp.rolloutId(), gaveUp.attempts());
                timers.cancel(ResendTick.INSTANCE);
            } else if (action == AthleteWork.Delivered.INSTANCE) {
                timers.cancel(ResendTick.INSTANCE);
            } else if (action == AthleteWork.AskForWork.INSTANCE) {
                askForWork();
            }
        }
        return this;
    }

    private void start(AssignRollout assignment) {
        try {
            getContext().pipeToSelf(job.orElseThrow().runner().run(assignment),
                    (trace, failure) -> new RolloutEnded(assignment, trace, failure));
        } catch (RuntimeException e) {
            getContext().getSelf().tell(new RolloutEnded(assignment, Optional.empty(), e));
        }
    }

    private void askForWork() {
        job.orElseThrow().coach().tell(new RequestRollouts(getContext().getSelf(), 1));
    }

    private AthleteWork work() {
        return work.orElseThrow();
    }
}
