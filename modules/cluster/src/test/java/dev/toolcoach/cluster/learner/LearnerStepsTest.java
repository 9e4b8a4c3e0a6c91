package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.GrpoMetrics;
import dev.toolcoach.cluster.testing.Plans;
import dev.toolcoach.cluster.job.GroupPlan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The learner's step state without an actor: when a step is due, one at a time, the job step, the end. */
class LearnerStepsTest {
    private static final int G = 2;
    /** GRPO's rule: a group whose rewards differ. */
    private static final Predicate<ScoredGroup> SIGNAL = g -> !g.hasZeroVariance();

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
            last = steps.scored(new GroupScorer.Scored(new ScoredGroup(group.groupId(), traces)));
        }
        return last;
    }

    /** The step under way ends at {@code version}, having learned from its whole batch; its job step. */
    private static long stepDone(LearnerSteps steps, int version) {
        return stepDone(steps, version, 0).step();
    }

    private static StepReport stepDone(LearnerSteps steps, int version, int skipped) {
        GrpoMetrics metrics = new GrpoMetrics(version, 0, 0, 0, 0, 0, 0, 0, 0, 0, skipped, 0, 0, 0);
        return steps.stepDone(new StepResult(version, skipped, metrics, Optional.empty(), Duration.ZERO));
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
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 3), 0, 0), 0, SIGNAL);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "no group yet");
        complete(steps, "a", 0);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "one group of two");
        complete(steps, "b", 0);
        assertEquals(List.of("a", "b"), groupIds(steps.next()));
        assertTrue(steps.status().training());

        complete(steps, "c", 0);
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "one step at a time");
        assertEquals(1, stepDone(steps, 1), "the first job step");
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "busy until idle (a checkpoint may follow)");
        steps.idle();

        assertEquals(List.of("c"), groupIds(steps.next()), "the last group trains alone");
        assertEquals(2, stepDone(steps, 2));
        steps.idle();
        assertTrue(steps.finished());
        assertSame(LearnerSteps.Finish.INSTANCE, steps.next());
        assertSame(LearnerSteps.Nothing.INSTANCE, steps.next(), "the end is reported once");

        LearnerStatus status = steps.status();
        assertEquals(new LearnerStatus(2, 2, new LearnerAccounts(3 * G, 0, 3, GroupCounts.NONE, 0, 3), 0, 0.5, 1, 1.0, false, true),
                status);
    }

    @Test
    void aStaleGroupIsClosedAtOnceSoTheLastBatchNeedNotWaitForIt() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 1, 2), 0, 0), 5, SIGNAL);
        assertEquals(5, steps.version());
        complete(steps, "old", 3);
        assertEquals(1, steps.accounts().dropped().get(GroupDropped.Reason.STALE_POLICY));
        complete(steps, "new", 5);
        assertEquals(List.of("new"), groupIds(steps.next()));
        assertEquals(1, stepDone(steps, 6), "the stale group and the trained one make one batch of groups");
        assertEquals(6, steps.version());
        assertTrue(steps.finished());
    }

    /** Step 1 trains groups a and b (version 0 to 1); then a group of version 0 arrives, stale at lag 0. */
    private static void firstStepThenAStaleGroup(LearnerSteps steps) {
        complete(steps, "a", 0);
        complete(steps, "b", 0);
        groupIds(steps.next());
        assertEquals(1, stepDone(steps, 1));
        steps.idle();
        complete(steps, "stale", 0);
    }

    /** Found by a job whose steps were recorded 1, 2, 3, 5, 6, 6 after a stale drop: steps are batches, not group counts. */
    @Test
    void aDroppedGroupLeavesNoGapInTheStepNumbersAndIsRefilledWhileTheSampleLimitAllows() {
        // 3 steps of 2 groups, at most 8 groups opened: room to refill two drops
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(new GroupPlan(G, 2, 0, 6, 8), 0, 0), 0, SIGNAL);
        firstStepThenAStaleGroup(steps);
        assertEquals(1, steps.accounts().dropped().get(GroupDropped.Reason.STALE_POLICY));
        complete(steps, "c", 1);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "the dropped group is refilled: the step waits for a second group");
        complete(steps, "d", 1);
        assertEquals(List.of("c", "d"), groupIds(steps.next()));
        assertEquals(2, stepDone(steps, 2), "the second step, not the third");
        steps.idle();
        complete(steps, "e", 2);
        complete(steps, "f", 2);
        assertEquals(List.of("e", "f"), groupIds(steps.next()));
        assertEquals(3, stepDone(steps, 3));
        steps.idle();
        assertTrue(steps.finished(), "three full steps, one drop refilled");
    }

    @Test
    void withoutRoomToRefillADropTheLastStepIsSmallerAndStillTheNextNumber() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 0, 4), 0, 0), 0, SIGNAL);
        firstStepThenAStaleGroup(steps);
        complete(steps, "c", 1);
        assertEquals(List.of("c"), groupIds(steps.next()), "four groups opened, the job's limit: the smaller batch trains");
        assertEquals(2, stepDone(steps, 2));
        steps.idle();
        assertTrue(steps.finished());
    }

    @Test
    void aGroupTheCoachGaveUpClosesSoTheJobEndsAndItsLateTracesAreDuplicates() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 2), 0, 0), 0, SIGNAL);
        steps.offer(TestTraces.generated("poison/0", "poison", "x", 0)); // its other rollout never comes
        complete(steps, "fine", 0);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "the poison group could still complete");

        assertTrue(steps.giveUp("poison"));
        assertFalse(steps.giveUp("poison"), "closed once");
        assertEquals(List.of("fine"), groupIds(steps.next()), "the last batch no longer waits for it");
        assertEquals(Admission.DUPLICATE, steps.offer(TestTraces.generated("poison/1", "poison", "x", 0)));
        stepDone(steps, 1);
        steps.idle();
        assertTrue(steps.finished());
        assertFalse(steps.giveUp("fine"), "a group already complete closes the ordinary way");
        assertEquals(new LearnerAccounts(4, 1, 1, GroupCounts.of(Map.of(GroupDropped.Reason.REDISPATCH_LIMIT, 1L)), 0, 1),
                steps.accounts(), "the given-up group never completed, its late trace is a duplicate");
        assertEquals(0, steps.accounts().pending());
    }

    @Test
    void aGroupHoldingATraceWithoutGeneratedTokensIsCountedAsUnusableAndClosed() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 1), 0, 0), 0, SIGNAL);
        assertEquals(Admission.WAITING, steps.offer(TestTraces.promptOnly("a/0", "a")));
        assertEquals(Admission.GROUP_UNUSABLE, steps.offer(TestTraces.generated("a/1", "a", "x", 0)));
        assertEquals(1, steps.accounts().dropped().get(GroupDropped.Reason.UNUSABLE));
        assertEquals(0, steps.accounts().pending());
        assertTrue(steps.finished(), "the job's only group is closed");
    }

    @Test
    void aResumedJobCountsTheGroupsClosedBeforeIt() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 6), 4, 0), 3, SIGNAL);
        assertFalse(steps.finished());
        assertEquals(Double.NaN, steps.status().lastMeanReward(), "no step yet");
        complete(steps, "e", 3);
        complete(steps, "f", 3);
        assertEquals(List.of("e", "f"), groupIds(steps.next()));
        assertEquals(3, stepDone(steps, 4), "the job's third step, the learner's first");
        assertEquals(1, steps.status().steps());
        assertTrue(steps.finished());
    }

    @Test
    void aStepCannotFinishWithoutHavingStarted() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 3), 0, 0), 0, SIGNAL);
        assertThrows(IllegalStateException.class, () -> stepDone(steps, 1));
    }

    @Test
    void withDynamicSamplingAGroupWithoutSignalIsDroppedWhenScoredAndDoesNotCountTowardsTheJob() {
        // 2 steps of 2 groups, at most 6 groups sampled
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(new GroupPlan(G, 2, 4, 4, 6), 0, 0), 0, SIGNAL);
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "a", 0, true));
        assertEquals(LearnerSteps.Disposition.NO_SIGNAL, completeWith(steps, "b", 0, false));
        assertEquals(1, steps.accounts().dropped().get(GroupDropped.Reason.NO_SIGNAL));
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "one informative group of two: the batch waits for a refill");
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "c", 0, true));
        LearnerSteps.Train train = assertInstanceOf(LearnerSteps.Train.class, steps.next());
        assertEquals(List.of("a", "c"), train.batch().stream().map(ScoredGroup::groupId).toList());
        assertEquals(3, train.sampling().groups(), "three queries sampled for the step");
        assertEquals(List.of("b"), train.sampling().noSignal().stream().map(ScoredGroup::groupId).toList(),
                "the group dropped for lack of signal goes with the step, for its figures over every sampled rollout");
        StepReport report = stepDone(steps, 1, 0);
        assertEquals(1, report.step(), "the dropped group is no step of its own");
        assertEquals(List.of("b"), report.noSignal().stream().map(ScoredGroup::groupId).toList());
        steps.idle();
        assertEquals(2.0 / 3, steps.status().lastInformativeFraction(), 1e-12);
        assertEquals(3, steps.status().lastGroupsSampled());
        assertFalse(steps.finished(), "two informative groups of four");

        // the bound: six groups sampled in all; the last step trains on the one informative group left
        completeWith(steps, "d", 1, false);
        completeWith(steps, "e", 1, false);
        assertSame(LearnerSteps.Wait.INSTANCE, steps.next(), "five sampled, the sixth may still bring signal");
        completeWith(steps, "f", 1, true);
        assertEquals(List.of("f"), groupIds(steps.next()), "the sample bound is reached: the smaller batch trains");
        assertEquals(2, stepDone(steps, 2));
        steps.idle();
        assertTrue(steps.finished());
        assertSame(LearnerSteps.Finish.INSTANCE, steps.next());
        assertEquals(3, steps.accounts().dropped().get(GroupDropped.Reason.NO_SIGNAL));
        assertEquals(0, steps.accounts().pending());
    }

    @Test
    void withoutDynamicSamplingAGroupWithoutSignalGoesIntoTheStep() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 2), 0, 0), 0, SIGNAL);
        assertEquals(LearnerSteps.Disposition.READY, completeWith(steps, "a", 0, false));
        completeWith(steps, "b", 0, true);
        assertEquals(List.of("a", "b"), groupIds(steps.next()));
        assertEquals(0, steps.accounts().withoutSignal(), "not dropped: the step counts what it skips");
        assertEquals(1, stepDone(steps, 1, 1).informativeGroups());
        assertEquals(new LearnerAccounts(2 * G, 0, 2, GroupCounts.NONE, 1, 1), steps.accounts());
    }

    @Test
    void aGroupTheRewardCannotScoreClosesAsDroppedAndIsReportedWithTheNextStep() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 2, 4, 2), 0, 0), 0, SIGNAL);
        for (int i = 0; i < G; i++) steps.offer(TestTraces.generated("bad/" + i, "bad", "x", 0));
        assertEquals(List.of("bad"), steps.takeCompleted().stream().map(CompleteGroup::groupId).toList());
        assertEquals(LearnerSteps.Disposition.REWARD_FAILED, steps.scored(new GroupScorer.Unscored("bad", "group bad: no score")));
        complete(steps, "good", 0);
        LearnerSteps.Train train = assertInstanceOf(LearnerSteps.Train.class, steps.next());
        assertEquals(new LearnerSteps.Sampling(2, List.of(), List.of("bad")), train.sampling());
        StepReport report = stepDone(steps, 1, 0);
        assertEquals(List.of("bad"), report.dropped());
        assertEquals(1, report.accounts().dropped().get(GroupDropped.Reason.REWARD_FAILED));
    }

    @Test
    void aBatchTrainsInTheOrderTheCoachOpenedItsGroupsNotTheOrderTheyCompleted() {
        LearnerSteps steps = new LearnerSteps(new LearnerSettings(Plans.plan(G, 3, 4, 3), 0, 0), 0, SIGNAL);
        complete(steps, "g10", 0);
        complete(steps, "g9", 0);
        complete(steps, "g2", 0);
        assertEquals(List.of("g2", "g9", "g10"), groupIds(steps.next()));
    }
}
