package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The learner's step state without an actor: when a step is due, one at a time, the job step, the end. */
class LearnerStepsTest {
    private static final int G = 2;
    private final AtomicReference<LearnerAccounts> counted = new AtomicReference<>(LearnerAccounts.NONE);

    private static void complete(LearnerSteps steps, String groupId, int version) {
        for (int i = 0; i < G; i++) steps.offer(TestTraces.generated(groupId + "/" + i, groupId, "x", version));
    }

    private static List<String> groupIds(LearnerSteps.Next next) {
        return assertInstanceOf(LearnerSteps.Train.class, next).batch().stream().map(CompleteGroup::groupId).toList();
    }

    @Test
    void theJobStepCountsBatchesTakenAPartlyFullLastOneIncluded() {
        assertEquals(0, LearnerSteps.jobStep(0, 4));
        assertEquals(1, LearnerSteps.jobStep(1, 4));
        assertEquals(1, LearnerSteps.jobStep(4, 4));
        assertEquals(2, LearnerSteps.jobStep(5, 4));
        assertEquals(3, LearnerSteps.jobStep(3, 1));
    }

    @Test
    void aFullBatchTrainsOneStepAtATimeAndTheSmallerLastBatchTrainsWhenNoOtherGroupCanCome() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 3, 0), 0, counted);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "no group yet");
        complete(steps, "a", 0);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "one group of two");
        complete(steps, "b", 0);
        assertEquals(List.of("a", "b"), groupIds(steps.next()));
        assertTrue(steps.status(counted.get()).training());

        complete(steps, "c", 0);
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "one step at a time");
        assertEquals(1, steps.stepDone(2, 1, 0.5), "the first job step");
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "busy until idle (a checkpoint may follow)");
        steps.idle();

        assertEquals(List.of("c"), groupIds(steps.next()), "the last group trains alone");
        assertEquals(2, steps.stepDone(1, 2, 1.0));
        steps.idle();
        assertTrue(steps.finished());
        assertSame(LearnerSteps.Finish.INSTANCE, steps.next());
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "the end is reported once");

        LearnerStatus status = steps.status(counted.get());
        assertEquals(new LearnerStatus(2, 2, 3 * G, 0, 0, 0, 0, 0, 1.0, false, true), status);
    }

    @Test
    void aStaleGroupIsClosedAtOnceSoTheLastBatchNeedNotWaitForIt() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 1, 2, 0), 5, counted);
        assertEquals(5, steps.version());
        complete(steps, "old", 3);
        assertEquals(1, counted.get().droppedStale());
        complete(steps, "new", 5);
        assertEquals(List.of("new"), groupIds(steps.next()));
        assertEquals(1, steps.stepDone(1, 6, 0.25), "the stale group and the trained one make one batch of groups");
        assertEquals(6, steps.version());
        assertTrue(steps.finished());
    }

    @Test
    void aGroupTheCoachGaveUpClosesSoTheJobEndsAndItsLateTracesAreDuplicates() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 2, 0), 0, counted);
        steps.offer(TestTraces.generated("poison/0", "poison", "x", 0)); // its other rollout never comes
        complete(steps, "fine", 0);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "the poison group could still complete");

        assertTrue(steps.giveUp("poison"));
        assertFalse(steps.giveUp("poison"), "closed once");
        assertEquals(List.of("fine"), groupIds(steps.next()), "the last batch no longer waits for it");
        assertEquals(Admission.DUPLICATE, steps.offer(TestTraces.generated("poison/1", "poison", "x", 0)));
        steps.stepDone(1, 1, 0.5);
        steps.idle();
        assertTrue(steps.finished());
        assertFalse(steps.giveUp("fine"), "a group already complete closes the ordinary way");
    }

    @Test
    void aResumedJobCountsTheGroupsClosedBeforeIt() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 6, 4), 3, counted);
        assertFalse(steps.finished());
        assertEquals(Double.NaN, steps.status(counted.get()).lastMeanReward(), "no step yet");
        complete(steps, "e", 3);
        complete(steps, "f", 3);
        assertEquals(List.of("e", "f"), groupIds(steps.next()));
        assertEquals(3, steps.stepDone(2, 4, 0.0), "the job's third step, the learner's first");
        assertEquals(1, steps.status(counted.get()).steps());
        assertTrue(steps.finished());
    }

    @Test
    void aStepCannotFinishWithoutHavingStarted() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 3, 0), 0, counted);
        assertThrows(IllegalStateException.class, () -> steps.stepDone(2, 1, 0.5));
    }
}
