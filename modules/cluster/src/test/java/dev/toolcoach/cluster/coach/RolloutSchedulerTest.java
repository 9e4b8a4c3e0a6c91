package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.cluster.testing.Plans;
import dev.toolcoach.cluster.job.GroupPlan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RolloutSchedulerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();

    private RolloutScheduler<String> scheduler(int groupSize, int groupsPerStep, int maxPolicyLag, long groupLimit, int queries) {
        return RolloutScheduler.start(Plans.coach(Plans.plan(groupSize, groupsPerStep, maxPolicyLag, groupLimit), TIMEOUT),
                TrainingQueries.of(queries), clock);
    }

    private static List<String> ids(List<Assignment<String>> assignments) {
        return assignments.stream().map(a -> a.message().rolloutId()).toList();
    }

    private static List<String> athletes(List<Assignment<String>> assignments) {
        return assignments.stream().map(Assignment::athlete).toList();
    }

    @Test
    void expandsEachQueryIntoAGroupAndGivesNoMoreThanAskedFor() {
        RolloutScheduler<String> coach = scheduler(2, 4, 1, 100, 5);
        List<Assignment<String>> first = coach.request("a", 3);
        assertEquals(List.of("g0/0", "g0/1", "g1/0"), ids(first));
        assertEquals(List.of("q0", "q0", "q1"), first.stream().map(a -> a.message().queryId()).toList());
        assertEquals(TrainingQueries.example(1), first.get(2).message().example());
        assertEquals("g1", first.get(2).message().groupId());

        CoachProgress progress = coach.progress();
        assertEquals(2, progress.groupsDispatched());
        assertEquals(3, progress.rolloutsDispatched());
        assertEquals(3, progress.rolloutsInFlight());
        assertEquals(List.of("g1/1"), ids(coach.request("b", 1)), "the open group's rollout goes out before a new group");
    }

    @Test
    void theGroupBoundStopsNewGroupsButNotRolloutsOfOpenOnes() {
        // lag 1, one group per step: at most 2 groups open
        RolloutScheduler<String> coach = scheduler(3, 1, 1, 100, 5);
        assertEquals(2, Plans.plan(3, 1, 1, 100).maxGroupsInFlight());
        assertEquals(List.of("g0/0", "g0/1", "g0/2", "g1/0"), ids(coach.request("a", 4)));
        assertEquals(List.of("g1/1", "g1/2"), ids(coach.request("b", 5)), "rollouts of the open group still go out");
        assertEquals(2, coach.progress().groupsOpen());

        for (int i = 0; i < 3; i++) assertEquals(RolloutScheduler.Receipt.COUNTED, coach.rolloutReceived("g0/" + i));
        assertEquals(1, coach.progress().groupsCompleted());
        assertEquals(List.of(), ids(coach.request("a", 1)), "a completed group still counts until the learner closes it");

        List<Assignment<String>> afterTraining = coach.groupTrained("g0", 1);
        assertEquals(List.of("g2/0", "g2/1", "g2/2"), ids(afterTraining));
        assertEquals(List.of("b", "a", "b"), athletes(afterTraining), "waiting athletes are served in turn");
        assertEquals(1, coach.progress().policyVersion());
        assertEquals(1, afterTraining.get(0).message().policyVersion(), "assignments carry the newest version");
    }

    @Test
    void aMissedDeadlineSendsTheRolloutAgainBeforeNewWorkAndTheLateTraceStillCounts() {
        RolloutScheduler<String> coach = scheduler(2, 1, 0, 100, 3);
        assertEquals(List.of("g0/0"), ids(coach.request("slow", 1)));
        clock.advance(Duration.ofSeconds(10));
        assertEquals(List.of("g0/1"), ids(coach.request("fast", 1)));

        clock.advance(TIMEOUT.minusSeconds(10));
        assertEquals(List.of(), coach.expireDeadlines(), "nobody has credit to take it");
        CoachProgress afterExpiry = coach.progress();
        assertEquals(1, afterExpiry.deadlinesMissed(), "only the slow athlete's deadline has passed");
        assertEquals(1, afterExpiry.rolloutsQueued());
        assertEquals(1, afterExpiry.rolloutsInFlight());

        List<Assignment<String>> again = coach.request("fast", 1);
        assertEquals(List.of("g0/0"), ids(again));
        assertEquals(1, coach.progress().rolloutsRedispatched());
        assertEquals(2, coach.progress().rolloutsDispatched());

        assertEquals(RolloutScheduler.Receipt.COUNTED, coach.rolloutReceived("g0/0"), "the slow athlete delivered after all");
        assertEquals(RolloutScheduler.Receipt.DUPLICATE, coach.rolloutReceived("g0/0"), "the second copy is discarded");
        assertEquals(1, coach.progress().duplicatesDiscarded());
        assertEquals(1, coach.progress().rolloutsInFlight(), "only g0/1 is still out");
    }

    @Test
    void aTraceArrivingWhileItsRolloutWaitsToGoAgainCancelsTheRetry() {
        RolloutScheduler<String> coach = scheduler(1, 1, 0, 100, 3);
        coach.request("slow", 1);
        clock.advance(TIMEOUT);
        coach.expireDeadlines();
        assertEquals(RolloutScheduler.Receipt.COUNTED, coach.rolloutReceived("g0/0"));
        assertEquals(0, coach.progress().rolloutsQueued());
        assertEquals(List.of(), ids(coach.request("fast", 1)), "nothing to send again, and the group bound holds");
    }

    @Test
    void anAthleteThatLeavesGivesItsRolloutsBackAndTheyGoFirst() {
        RolloutScheduler<String> coach = scheduler(2, 2, 0, 100, 5);
        assertEquals(List.of("g0/0", "g0/1", "g1/0"), ids(coach.request("a", 3)));
        assertEquals(List.of("g1/1"), ids(coach.request("b", 1)));
        assertEquals(List.of(), coach.request("b", 2), "two groups open, all their rollouts out");

        List<Assignment<String>> redispatched = coach.athleteLeft("a");
        assertEquals(List.of("g0/0", "g0/1"), ids(redispatched));
        assertEquals(List.of("b", "b"), athletes(redispatched));
        CoachProgress progress = coach.progress();
        assertEquals(3, progress.athleteLosses());
        assertEquals(2, progress.rolloutsRedispatched());
        assertEquals(1, progress.rolloutsQueued(), "g1/0 waits for the next athlete that asks");
        assertEquals(List.of("g1/0"), ids(coach.request("c", 5)));
        assertEquals(List.of(), coach.athleteLeft("a"), "leaving twice changes nothing");
        assertEquals(3, coach.progress().athleteLosses());
    }

    @Test
    void aRolloutThatNeverComesBackIsReDispatchedAtMostTheCapThenItsGroupIsGivenUpAndDroppedOnce() {
        RolloutScheduler<String> coach = RolloutScheduler.start(new CoachSettings(new GroupPlan(2, 1, 1, 3, 3), TIMEOUT, 2),
                TrainingQueries.of(3), clock);
        assertEquals(List.of("g0/0", "g0/1", "g1/0", "g1/1"), ids(coach.request("a", 4)));
        assertEquals(RolloutScheduler.Receipt.COUNTED, coach.rolloutReceived("g0/0"));
        for (String id : List.of("g1/0", "g1/1")) coach.rolloutReceived(id);
        coach.groupTrained("g1", 1);
        // g0/1 is the poison: whoever takes it never answers
        for (int resend = 1; resend <= 2; resend++) {
            clock.advance(TIMEOUT);
            assertEquals(List.of(), coach.expireDeadlines(), "nobody has credit");
            assertEquals(List.of("g0/1"), ids(coach.request("b", 1)), "re-dispatch " + resend);
            assertEquals(List.of(), coach.takeGivenUp());
        }
        clock.advance(TIMEOUT);
        coach.expireDeadlines();
        assertEquals(List.of("g0"), coach.takeGivenUp(), "taken back a third time: given up");
        assertEquals(List.of(), coach.takeGivenUp(), "handed out once");
        assertTrue(coach.isOpen("g0"), "open until the learner drops it");
        assertEquals(List.of("g2/0", "g2/1"), ids(coach.request("b", 5)), "the poison rollout is not sent again");

        coach.groupDropped("g0", GroupDropped.Reason.REDISPATCH_LIMIT);
        CoachProgress progress = coach.progress();
        assertFalse(coach.isOpen("g0"));
        assertEquals(1L, progress.groupsDropped().get(GroupDropped.Reason.REDISPATCH_LIMIT));
        assertEquals(2, progress.rolloutsRedispatched());
        assertEquals(3, progress.deadlinesMissed());
        assertEquals(1, progress.rolloutsCancelled(), "the given-up rollout");
        for (String id : List.of("g2/0", "g2/1")) coach.rolloutReceived(id);
        coach.groupTrained("g2", 2);
        assertTrue(coach.finished(), "the job ends although one of its queries never answers");
    }

    @Test
    void groupsCloseOnceAndLateReportsAreCountedNotApplied() {
        RolloutScheduler<String> coach = scheduler(2, 1, 1, 100, 5);
        coach.request("a", 4);
        coach.rolloutReceived("g0/0");
        coach.rolloutReceived("g0/1");
        coach.groupTrained("g0", 3);
        coach.groupDropped("g1", GroupDropped.Reason.STALE_POLICY);

        assertTrue(coach.groupTrained("g0", 4).isEmpty());
        coach.groupDropped("g1", GroupDropped.Reason.REWARD_FAILED);
        coach.groupTrained("g99", 4);
        assertEquals(RolloutScheduler.Receipt.DUPLICATE, coach.rolloutReceived("g1/0"), "a rollout of a closed group");
        assertEquals(RolloutScheduler.Receipt.UNKNOWN, coach.rolloutReceived("g99/0"));
        assertEquals(RolloutScheduler.Receipt.UNKNOWN, coach.rolloutReceived("nonsense"));

        CoachProgress progress = coach.progress();
        assertEquals(1, progress.groupsTrained());
        assertEquals(Map.of(GroupDropped.Reason.STALE_POLICY, 1L, GroupDropped.Reason.UNUSABLE, 0L,
                GroupDropped.Reason.REWARD_FAILED, 0L, GroupDropped.Reason.REDISPATCH_LIMIT, 0L, GroupDropped.Reason.NO_SIGNAL, 0L),
                progress.groupsDropped().byReason(),
                "every reason listed");
        assertEquals(2, progress.rolloutsCancelled(), "g1's two rollouts were out when it was dropped");
        assertEquals(0, progress.rolloutsInFlight());
        assertEquals(5, progress.reportsIgnored());
        assertEquals(1, progress.duplicatesDiscarded());
        assertEquals(3, progress.policyVersion(), "a repeated report does not move the version");
    }

    @Test
    void theCursorWrapsAndTheJobFinishesAtTheGroupLimit() {
        RolloutScheduler<String> coach = scheduler(1, 5, 0, 3, 2);
        List<Assignment<String>> all = coach.request("a", 10);
        assertEquals(List.of("q0", "q1", "q0"), all.stream().map(a -> a.message().queryId()).toList());
        assertFalse(coach.finished());
        for (Assignment<String> assignment : all) {
            coach.rolloutReceived(assignment.message().rolloutId());
            coach.groupTrained(assignment.message().groupId(), 1);
        }
        assertEquals(List.of(), coach.request("a", 1));
        assertTrue(coach.finished());
        assertTrue(coach.progress().finished());
        assertEquals(1, coach.snapshot().epoch());
        assertEquals(1, coach.snapshot().nextExample());
    }

    @Test
    void aGroupDroppedForLackOfSignalIsRefilledFromTheNextQueryUpToTheSampleBound() {
        // sync, one group of 1 per step, 2 groups to train, at most 4 sampled
        RolloutScheduler<String> coach = RolloutScheduler.start(new CoachSettings(new GroupPlan(1, 1, 0, 2, 4), TIMEOUT, 3),
                TrainingQueries.of(10), clock);
        assertEquals(List.of("g0/0"), ids(coach.request("a", 5)), "one group in flight in the synchronous mode");
        coach.rolloutReceived("g0/0");
        assertEquals(List.of("g1/0"), ids(coach.groupDropped("g0", GroupDropped.Reason.NO_SIGNAL)),
                "the next query takes the place of a group without signal");
        coach.rolloutReceived("g1/0");
        assertEquals(List.of("g2/0"), ids(coach.groupTrained("g1", 1)));
        coach.rolloutReceived("g2/0");
        assertEquals(List.of("g3/0"), ids(coach.groupDropped("g2", GroupDropped.Reason.NO_SIGNAL)));
        coach.rolloutReceived("g3/0");
        assertEquals(List.of(), coach.groupDropped("g3", GroupDropped.Reason.NO_SIGNAL),
                "four groups sampled: the bound stops the job although it trained one group of two");
        assertTrue(coach.finished());
        assertEquals(3L, coach.progress().groupsDropped().get(GroupDropped.Reason.NO_SIGNAL));

        // every drop is refilled, so a job's steps stay full and numbered without a gap; the sample bound still ends it
        RolloutScheduler<String> other = RolloutScheduler.start(new CoachSettings(new GroupPlan(1, 1, 0, 1, 2), TIMEOUT, 3),
                TrainingQueries.of(10), clock);
        other.request("a", 5);
        other.rolloutReceived("g0/0");
        assertEquals(List.of("g1/0"), ids(other.groupDropped("g0", GroupDropped.Reason.REWARD_FAILED)), "other drops are refilled too");
        other.rolloutReceived("g1/0");
        assertEquals(List.of(), other.groupDropped("g1", GroupDropped.Reason.STALE_POLICY), "two groups sampled: the bound");
        assertTrue(other.finished());
    }

    @Test
    void resumingFromACursorReRunsOpenGroupsFirstAndKeepsTheJobCounts() {
        RolloutScheduler<String> coach = scheduler(2, 2, 0, 10, 3);
        coach.request("a", 4);
        coach.rolloutReceived("g0/0");
        coach.rolloutReceived("g0/1");
        coach.groupTrained("g0", 1);
        coach.request("a", 1); // opens g2
        coach.groupDropped("g1", GroupDropped.Reason.REWARD_FAILED);
        CoachCursor cursor = coach.snapshot();
        assertEquals(List.of(new CoachCursor.OpenGroup("g2", 2, "q2")), cursor.openGroups());

        RolloutScheduler<String> resumed = RolloutScheduler.resume(Plans.coach(Plans.plan(2, 2, 0, 10), TIMEOUT),
                TrainingQueries.of(3), clock, cursor);
        assertEquals(cursor, resumed.snapshot(), "resuming and snapshotting again changes nothing");
        CoachProgress progress = resumed.progress();
        assertEquals(3, progress.groupsDispatched());
        assertEquals(1, progress.groupsTrained());
        assertEquals(1, progress.groupsCompleted());
        assertEquals(1, progress.groupsDropped().total());
        assertEquals(1, progress.policyVersion());
        List<Assignment<String>> work = resumed.request("b", 4);
        assertEquals(List.of("g2/0", "g2/1", "g3/0", "g3/1"), ids(work));
        assertEquals("q0", work.get(2).message().queryId(), "the dataset continues where the cursor points");
        assertEquals(RolloutScheduler.Receipt.DUPLICATE, resumed.rolloutReceived("g1/0"), "groups closed before the checkpoint stay closed");
    }

    @Test
    void aCursorThatDoesNotFitTheDatasetIsRefusedByName() {
        CoachCursor cursor = new CoachCursor(0, 0, 5, List.of(new CoachCursor.OpenGroup("g4", 1, "q7")), 2, 0, 0, GroupCounts.NONE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RolloutScheduler.resume(
                Plans.coach(Plans.plan(2, 1, 0, 10), TIMEOUT), TrainingQueries.of(3), clock, cursor));
        assertTrue(e.getMessage().contains("g4") && e.getMessage().contains("q7"), e.getMessage());
        CoachCursor pastTheEnd = new CoachCursor(3, 0, 5, List.of(), 2, 0, 0, GroupCounts.NONE);
        assertThrows(IllegalArgumentException.class, () -> RolloutScheduler.resume(
                Plans.coach(Plans.plan(2, 1, 0, 10), TIMEOUT), TrainingQueries.of(3), clock, pastTheEnd));
    }

    @Test
    void badSettingsAndRequestsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Plans.coach(Plans.plan(0, 1, 0, 1), TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> Plans.coach(Plans.plan(1, 1, -1, 1), TIMEOUT));
        assertThrows(IllegalArgumentException.class, () -> Plans.coach(Plans.plan(1, 1, 0, 1), Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> scheduler(1, 1, 0, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> scheduler(1, 1, 0, 1, 1).request("a", 0));
    }
}
