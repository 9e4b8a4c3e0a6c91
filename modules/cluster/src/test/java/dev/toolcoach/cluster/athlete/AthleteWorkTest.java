package dev.toolcoach.cluster.athlete;

import dev.toolcoach.cluster.athlete.AthleteWork.AskForWork;
import dev.toolcoach.cluster.athlete.AthleteWork.Delivered;
import dev.toolcoach.cluster.athlete.AthleteWork.GaveUp;
import dev.toolcoach.cluster.athlete.AthleteWork.Run;
import dev.toolcoach.cluster.athlete.AthleteWork.Send;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The athlete's work without an actor: one rollout at a time, each trace sent until acked or given up. */
class AthleteWorkTest {

    private static AssignRollout assignment(String rolloutId) {
        return new AssignRollout(rolloutId, "g", TaskExample.question("q", "What is 2 + 3?", "5", List.of(), Map.of()), 0);
    }

    private static Trace trace(String rolloutId) {
        return new Trace(rolloutId, "g", "q", "What is 2 + 3?", List.of(), null, "5", Termination.ANSWER, null, 0, 0, Map.of());
    }

    @Test
    void aTraceIsSentOnceAndTheNextRolloutIsAskedForWhenTheLearnerAcksIt() {
        AthleteWork work = new AthleteWork(3);
        assertEquals(Optional.empty(), work.inHand());
        AssignRollout a = assignment("g/0");
        assertEquals(List.of(new Run(a)), work.assigned(a));
        assertEquals(Optional.of("g/0"), work.inHand());

        Trace t = trace("g/0");
        List<AthleteWork.Action> sent = work.traceReady(t);
        assertEquals(List.of(new Send(t, 1)), sent);
        assertTrue(((Send) sent.get(0)).first(), "the first send starts the resend timer");
        assertEquals(Optional.of("g/0"), work.inHand(), "in hand until acked");

        assertEquals(List.of(), work.acked("g/9"), "an ack for another rollout changes nothing");
        assertEquals(List.of(Delivered.INSTANCE, AskForWork.INSTANCE), work.acked("g/0"));
        assertEquals(Optional.empty(), work.inHand());
        assertEquals(List.of(), work.acked("g/0"), "a second ack of the same trace changes nothing");
        assertEquals(List.of(), work.ackTimedOut(), "a late tick with nothing in flight changes nothing");
    }

    @Test
    void withoutAnAckTheTraceIsResentUntilTheLastAttemptThenGivenUp() {
        AthleteWork work = new AthleteWork(3);
        work.assigned(assignment("g/0"));
        Trace t = trace("g/0");
        work.traceReady(t);

        List<AthleteWork.Action> second = work.ackTimedOut();
        assertEquals(List.of(new Send(t, 2)), second);
        assertTrue(!((Send) second.get(0)).first(), "a resend leaves the timer running");
        assertEquals(List.of(new Send(t, 3)), work.ackTimedOut());
        assertEquals(List.of(new GaveUp("g/0", 3), AskForWork.INSTANCE), work.ackTimedOut());
        assertEquals(Optional.empty(), work.inHand());
        assertEquals(List.of(), work.acked("g/0"), "an ack after giving up changes nothing");
    }

    @Test
    void aRolloutArrivingWhileAnotherIsInHandWaitsItsTurnAndNoneIsLost() {
        AthleteWork work = new AthleteWork(1);
        AssignRollout a = assignment("g/0");
        AssignRollout b = assignment("g/1");
        AssignRollout c = assignment("g/2");
        work.assigned(a);
        assertEquals(List.of(), work.assigned(b), "waits while a runs");
        work.traceReady(trace("g/0"));
        assertEquals(List.of(), work.assigned(c), "waits while a's trace is in flight");

        assertEquals(List.of(Delivered.INSTANCE, new Run(b)), work.acked("g/0"));
        assertEquals(List.of(new Run(c)), work.rolloutFailed(), "a failed rollout goes straight to the next");
        work.traceReady(trace("g/2"));
        assertEquals(List.of(new GaveUp("g/2", 1), AskForWork.INSTANCE), work.ackTimedOut(), "one attempt only");
    }

    @Test
    void aRolloutThatEndsWithoutATraceAsksForNewWork() {
        AthleteWork work = new AthleteWork(2);
        work.assigned(assignment("g/0"));
        assertEquals(List.of(AskForWork.INSTANCE), work.rolloutFailed());
        assertEquals(Optional.empty(), work.inHand());
    }
}
