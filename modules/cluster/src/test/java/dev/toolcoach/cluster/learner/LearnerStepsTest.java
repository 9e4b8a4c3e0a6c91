package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerStatus;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    /** Completes the group and scores it with rewards that differ. */
    private static void complete(LearnerSteps steps, String groupId, int version) {
        completeWith(steps, groupId, version, true);
    }

    /** Completes the group and scores it: rewards 0 and 1 when informative, all 1 otherwise; its disposition. */
    private static LearnerSteps.Disposition completeWith(LearnerSteps steps, String groupId, int version, boolean informative) {
        for (int i = 0; i < G; i++) steps.offer(TestTraces.generated(groupId + "/" + i, groupId, "x", version));
        LearnerSteps.Disposition last = null;
        for (CompleteGroup group : steps.takeCompleted()) {
            List<ScoredTrace> traces = new ArrayList<>();
            for (int i = 0; i < group.traces().size(); i++) traces.add(new ScoredTrace(group.traces().get(i), informative ? i % 2 : 1));
            last = steps.scored(group.groupId(), Optional.of(new ScoredGroup(group.groupId(), traces)), informative);
        }
        return last;
    }

    private static List<String> groupIds(LearnerSteps.Next next) {
        return assertInstanceOf(LearnerSteps.Train.class, next).batch().stream().map(ScoredGroup::groupId).toList();
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
        assertEquals(1, steps.stepDone(2, 1, 0.5, 2), "the first job step");
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "busy until idle (a checkpoint may follow)");
        steps.idle();

        assertEquals(List.of("c"), groupIds(steps.next()), "the last group trains alone");
        assertEquals(2, steps.stepDone(1, 2, 1.0, 1));
        steps.idle();
        assertTrue(steps.finished());
        assertSame(LearnerSteps.Finish.INSTANCE, steps.next());
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "the end is reported once");

        LearnerStatus status = steps.status(counted.get());
        assertEquals(new LearnerStatus(2, 2, 3 * G, 0, 0, 0, 0, 0, 1.0, 1, 1.0, false, true), status);
    }

    @Test
    void aStaleGroupIsClosedAtOnceSoTheLastBatchNeedNotWaitForIt() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 1, 2, 0), 5, counted);
        assertEquals(5, steps.version());
        complete(steps, "old", 3);
        assertEquals(1, counted.get().droppedStale());
        complete(steps, "new", 5);
        assertEquals(List.of("new"), groupIds(steps.next()));
        assertEquals(1, steps.stepDone(1, 6, 0.25, 1), "the stale group and the trained one make one batch of groups");
        assertEquals(6, steps.version());
        assertTrue(steps.finished());
    }

    /** Step 1 trains groups a and b (version 0 to 1); then a group of version 0 arrives, stale at lag 0. */
    private static void firstStepThenAStaleGroup(LearnerSteps steps) {
        complete(steps, "a", 0);
        complete(steps, "b", 0);
        groupIds(steps.next());
        assertEquals(1, steps.stepDone(2, 1, 0.5, 2));
        steps.idle();
        complete(steps, "stale", 0);
    }

    /** Found by a job whose steps were recorded 1, 2, 3, 5, 6, 6 after a stale drop: steps are batches, not group counts. */
    @Test
    void aDroppedGroupLeavesNoGapInTheStepNumbersAndIsRefilledWhileTheSampleLimitAllows() {
        // 3 steps of 2 groups, at most 8 groups opened: room to refill two drops
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 0, 6, 8, false, 0, 0), 0, counted);
        firstStepThenAStaleGroup(steps);
        assertEquals(1, counted.get().droppedStale());
        complete(steps, "c", 1);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "the dropped group is refilled: the step waits for a second group");
        complete(steps, "d", 1);
        assertEquals(List.of("c", "d"), groupIds(steps.next()));
        assertEquals(2, steps.stepDone(2, 2, 0.5, 2), "the second step, not the third");
        steps.idle();
        complete(steps, "e", 2);
        complete(steps, "f", 2);
        assertEquals(List.of("e", "f"), groupIds(steps.next()));
        assertEquals(3, steps.stepDone(2, 3, 0.5, 2));
        steps.idle();
        assertTrue(steps.finished(), "three full steps, one drop refilled");
    }

    @Test
    void withoutRoomToRefillADropTheLastStepIsSmallerAndStillTheNextNumber() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 0, 4, 0), 0, counted);
        firstStepThenAStaleGroup(steps);
        complete(steps, "c", 1);
        assertEquals(List.of("c"), groupIds(steps.next()), "four groups opened, the job's limit: the smaller batch trains");
        assertEquals(2, steps.stepDone(1, 2, 0.5, 1));
        steps.idle();
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
        steps.stepDone(1, 1, 0.5, 1);
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
        assertEquals(3, steps.stepDone(2, 4, 0.0, 2), "the job's third step, the learner's first");
        assertEquals(1, steps.status(counted.get()).steps());
        assertTrue(steps.finished());
    }

    @Test
    void aStepCannotFinishWithoutHavingStarted() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 3, 0), 0, counted);
        assertThrows(IllegalStateException.class, () -> steps.stepDone(2, 1, 0.5, 2));
    }

    @Test
    void withDynamicSamplingAGroupWithoutSignalIsDroppedWhenScoredAndDoesNotCountTowardsTheJob() {
        // 2 steps of 2 groups, at most 6 groups sampled
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 4, 6, true, 0, 0), 0, counted);
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "a", 0, true));
        assertEquals(LearnerSteps.Disposition.NO_SIGNAL, completeWith(steps, "b", 0, false));
        assertEquals(1, counted.get().skippedNoSignal());
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "one informative group of two: the batch waits for a refill");
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "c", 0, true));
        LearnerSteps.Train train = assertInstanceOf(LearnerSteps.Train.class, steps.next());
        assertEquals(List.of("a", "c"), train.batch().stream().map(ScoredGroup::groupId).toList());
        assertEquals(new LearnerSteps.Sampling(3, 1, List.of()), train.sampling(), "three queries sampled for the step");
        assertEquals(1, steps.stepDone(2, 1, 0.5, 2), "the dropped group is no step of its own");
        steps.idle();
        assertEquals(2.0 / 3, steps.status(counted.get()).lastInformativeFraction(), 1e-12);
        assertEquals(3, steps.status(counted.get()).lastGroupsSampled());
        assertFalse(steps.finished(), "two informative groups of four");

        // the bound: six groups sampled in all; the last step trains on the one informative group left
        completeWith(steps, "d", 1, false);
        completeWith(steps, "e", 1, false);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "five sampled, the sixth may still bring signal");
        completeWith(steps, "f", 1, true);
        assertEquals(List.of("f"), groupIds(steps.next()), "the sample bound is reached: the smaller batch trains");
        assertEquals(2, steps.stepDone(1, 2, 0.5, 1));
        steps.idle();
        assertTrue(steps.finished());
        assertSame(LearnerSteps.Finish.INSTANCE, steps.next());
        assertEquals(3, counted.get().skippedNoSignal());
    }

    @Test
    void withoutDynamicSamplingAGroupWithoutSignalGoesIntoTheStep() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 2, 0), 0, counted);
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "a", 0, false));
        completeWith(steps, "b", 0, true);
        assertEquals(List.of("a", "b"), groupIds(steps.next()));
        assertEquals(0, counted.get().skippedNoSignal(), "the step counts what it skips");
    }

    @Test
    void aGroupTheRewardCannotScoreClosesAsDroppedAndIsReportedWithTheNextStep() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 2, 4, 2, 0), 0, counted);
        for (int i = 0; i < G; i++) steps.offer(TestTraces.generated("bad/" + i, "bad", "x", 0));
        assertEquals(List.of("bad"), steps.takeCompleted().stream().map(CompleteGroup::groupId).toList());
        assertEquals(LearnerSteps.Disposition.REWARD_FAILED, steps.scored("bad", Optional.empty(), false));
        complete(steps, "good", 0);
        LearnerSteps.Train train = assertInstanceOf(LearnerSteps.Train.class, steps.next());
        assertEquals(new LearnerSteps.Sampling(2, 0, List.of("bad")), train.sampling());
    }

    @Test
    void aBatchTrainsInTheOrderTheCoachOpenedItsGroupsNotTheOrderTheyCompleted() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(G, 3, 4, 3, 0), 0, counted);
        complete(steps, "g10", 0);
        complete(steps, "g9", 0);
        complete(steps, "g2", 0);
        assertEquals(List.of("g2", "g9", "g10"), groupIds(steps.next()));
    }
}
