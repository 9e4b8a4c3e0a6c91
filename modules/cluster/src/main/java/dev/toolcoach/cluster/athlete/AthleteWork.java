package dev.toolcoach.cluster.athlete;

import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.trace.Trace;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * An athlete's work, without Akka: one rollout at a time, its trace sent to the learner until the learner
 * acks it (at most {@code maxAttempts} sends), then the next rollout. Each event returns what the athlete
 * must do, in order. Not thread-safe: the athlete actor owns it.
 */
final class AthleteWork {

    /** What the athlete does in answer to an event. */
    sealed interface Action permits Run, Send, Delivered, GaveUp, AskForWork {
    }

    /** Run this rollout now. */
    record Run(AssignRollout assignment) implements Action {
    }

    /** Send the trace to the learner; the first send starts the resend timer. */
    record Send(Trace trace, int attempt) implements Action {
        boolean first() {
            return attempt == 1;
        }
    }

    /** The learner acked the trace in flight: stop resending it. */
    enum Delivered implements Action { INSTANCE }

    /** No ack after {@code attempts} sends: stop resending; the coach's deadline dispatches the rollout again. */
    record GaveUp(String rolloutId, int attempts) implements Action {
    }

    /** Ask the coach for one rollout. */
    enum AskForWork implements Action { INSTANCE }

    /** A trace on its way to the learner. */
    private record Delivery(Trace trace, int attempts) {
    }

    private final int maxAttempts;
    /** Assignments beyond the one asked for (a coach never sends them, but none may be lost). */
    private final Deque<AssignRollout> waiting = new ArrayDeque<>();
    private AssignRollout running;
    private Delivery delivery;

    /** @param maxAttempts {@link DeliverySettings#maxAttempts()} */
    AthleteWork(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** A rollout arrived: it runs now, or waits its turn (no action) while another is in hand. */
    List<Action> assigned(AssignRollout assignment) {
        if (inHand().isPresent()) {
            waiting.add(assignment);
            return List.of();
        }
        return List.of(run(assignment));
    }

    /** The rollout in hand ended without a trace. */
    List<Action> rolloutFailed() {
        running = null;
        return List.of(next());
    }

    /** The rollout in hand ended with its trace: the first send. */
    List<Action> traceReady(Trace trace) {
        running = null;
        delivery = new Delivery(trace, 1);
        return List.of(new Send(trace, 1));
    }

    /** The learner acked a rollout; no action unless it is the trace in flight. */
    List<Action> acked(String rolloutId) {
        if (delivery == null || !delivery.trace().rolloutId().equals(rolloutId)) return List.of();
        delivery = null;
        return List.of(Delivered.INSTANCE, next());
    }

    /** No ack in time: send the trace again, or give it up after the last attempt. */
    List<Action> ackTimedOut() {
        if (delivery == null) return List.of();
        if (delivery.attempts() >= maxAttempts) {
            GaveUp gaveUp = new GaveUp(delivery.trace().rolloutId(), delivery.attempts());
            delivery = null;
            return List.of(gaveUp, next());
        }
        delivery = new Delivery(delivery.trace(), delivery.attempts() + 1);
        return List.of(new Send(delivery.trace(), delivery.attempts()));
    }

    /** The rollout running or being delivered, if any. */
    Optional<String> inHand() {
        if (running != null) return Optional.of(running.rolloutId());
        return Optional.ofNullable(delivery).map(d -> d.trace().rolloutId());
    }

    private Action next() {
        AssignRollout next = waiting.poll();
        return next != null ? run(next) : AskForWork.INSTANCE;
    }

    private Run run(AssignRollout assignment) {
        running = assignment;
        return new Run(assignment);
    }
}
