package dev.toolcoach.cluster.coach;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.metrics.PrometheusText;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.DropGivenUpGroup;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetCursor;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetProgress;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupTrained;
import dev.toolcoach.cluster.protocol.LearnerProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.LearnerStarted;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.protocol.CoachProtocol.RolloutReceived;
import dev.toolcoach.cluster.testing.PrometheusSamples;
import dev.toolcoach.cluster.testing.Plans;
import dev.toolcoach.cluster.job.GroupPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coach actor with athlete probes, the test playing the learner. Every message crosses the CBOR
 * serializer (serialize-messages = on in application-test.conf).
 */
class CoachActorTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration ROLLOUT_TIMEOUT = Duration.ofMinutes(1);

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static String received(TestProbe<AthleteProtocol.Command> athlete) {
        return athlete.expectMessageClass(AssignRollout.class, WAIT).rolloutId();
    }

    private static Set<String> received(TestProbe<AthleteProtocol.Command> athlete, int count) {
        return Set.copyOf(IntStream.range(0, count).mapToObj(i -> received(athlete)).toList());
    }

    private static void learnerHolds(ActorRef<CoachProtocol.Command> coach, String... rolloutIds) {
        for (String id : rolloutIds) coach.tell(new RolloutReceived(id));
    }

    @Test
    void pullsWorkRedispatchesLostAndLateRolloutsAndKeepsExactAccounts() {
        ManualClock clock = new ManualClock();
        // groups of 2, at most 2 groups open, 3 groups in the job
        CoachSettings settings = Plans.coach(Plans.plan(2, 2, 0, 3), ROLLOUT_TIMEOUT);
        ActorRef<CoachProtocol.Command> coach = testKit.spawn(CoachActor.create(settings, TrainingQueries.of(5), Optional.empty(),
                clock, Duration.ofMillis(20)));
        TestProbe<AthleteProtocol.Command> a = testKit.createTestProbe("athlete-a");
        TestProbe<AthleteProtocol.Command> b = testKit.createTestProbe("athlete-b");
        TestProbe<AthleteProtocol.Command> c = testKit.createTestProbe("athlete-c");

        coach.tell(new RequestRollouts(a.ref(), 1));
        AssignRollout first = a.expectMessageClass(AssignRollout.class, WAIT);
        assertEquals("g0/0", first.rolloutId());
        assertEquals("q0", first.queryId());
        assertEquals(TrainingQueries.example(0), first.example());
        coach.tell(new RequestRollouts(b.ref(), 1));
        assertEquals("g0/1", received(b));
        coach.tell(new RequestRollouts(c.ref(), 2));
        assertEquals(Set.of("g1/0", "g1/1"), received(c, 2));
        coach.tell(new RequestRollouts(a.ref(), 1)); // both groups open: a waits

        b.stop(); // mid-rollout: its rollout goes to the athlete that is waiting
        assertEquals("g0/1", received(a));

        learnerHolds(coach, "g0/0", "g0/1", "g1/0", "g1/1");
        learnerHolds(coach, "g0/1"); // b's trace had reached the learner after all: a late duplicate
        coach.tell(new GroupTrained("g0", 1));
        coach.tell(new RequestRollouts(a.ref(), 2));
        AssignRollout third = a.expectMessageClass(AssignRollout.class, WAIT);
        assertEquals("g2/0", third.rolloutId());
        assertEquals(1, third.policyVersion(), "the newest trained version goes with the work");
        assertEquals("g2/1", received(a));

        coach.tell(new RequestRollouts(c.ref(), 2));
        clock.advance(ROLLOUT_TIMEOUT); // a stalls past both deadlines; the deadline tick hands them to c
        assertEquals(Set.of("g2/0", "g2/1"), received(c, 2));

        learnerHolds(coach, "g2/0", "g2/1");
        coach.tell(new GroupTrained("g1", 1));
        coach.tell(new GroupDropped("g2", GroupDropped.Reason.STALE_POLICY));
        coach.tell(new GroupTrained("g1", 2)); // a repeated report changes nothing

        TestProbe<CoachProgress> progressProbe = testKit.createTestProbe();
        coach.tell(new GetProgress(progressProbe.ref()));
        CoachProgress progress = progressProbe.receiveMessage(WAIT);
        assertEquals(new CoachProgress(3, 3, 2, GroupCounts.of(Map.of(GroupDropped.Reason.STALE_POLICY, 1L)), 0,
                6, 3, 6, 0, 0, 0, 2, 1, 1, 1, 1, true), progress);

        TestProbe<CoachCursor> cursorProbe = testKit.createTestProbe();
        coach.tell(new GetCursor(cursorProbe.ref()));
        CoachCursor cursor = cursorProbe.receiveMessage(WAIT);
        assertEquals(3, cursor.nextGroup());
        assertEquals(3, cursor.nextExample());
        assertTrue(cursor.openGroups().isEmpty());

        Map<String, Double> metrics = PrometheusSamples.parse(new String(
                PrometheusText.scrape(ToolCoachMetrics.get(testKit.system()).registry()), StandardCharsets.UTF_8));
        assertEquals(3.0, metrics.get("toolcoach_coach_groups_total{event=\"dispatched\"}"), "the accounts are on /metrics");
        assertEquals(1.0, metrics.get("toolcoach_coach_groups_dropped_total{reason=\"stale_policy\"}"));
        assertEquals(3.0, metrics.get("toolcoach_coach_rollouts_total{event=\"redispatched\"}"));
        assertEquals(1.0, metrics.get("toolcoach_coach_rollouts_total{event=\"duplicate_discarded\"}"));
        assertEquals(0.0, metrics.get("toolcoach_coach_rollouts_in_flight"));
        testKit.stop(coach); // its ticks would publish over the next test's coach (one CoachMetrics per system)
    }

    @Test
    void aQueryWhoseAthletesNeverAnswerIsGivenUpAfterTheCapAndTheLearnersDropIsCountedOnMetrics() {
        ManualClock clock = new ManualClock();
        // one group of 2 in the job; a rollout may go out again once
        CoachSettings settings = new CoachSettings(new GroupPlan(2, 1, 0, 1, 1), ROLLOUT_TIMEOUT, 1);
        ActorRef<CoachProtocol.Command> coach = testKit.spawn(CoachActor.create(settings, TrainingQueries.of(2), Optional.empty(),
                clock, Duration.ofMillis(20)));
        TestProbe<LearnerProtocol.Command> learner = testKit.createTestProbe("learner");
        coach.tell(new LearnerStarted(learner.ref()));
        TestProbe<AthleteProtocol.Command> silent = testKit.createTestProbe("athlete-silent");

        coach.tell(new RequestRollouts(silent.ref(), 2));
        assertEquals(Set.of("g0/0", "g0/1"), received(silent, 2));
        learnerHolds(coach, "g0/0");
        coach.tell(new RequestRollouts(silent.ref(), 5));
        clock.advance(ROLLOUT_TIMEOUT); // no answer: it goes out again, once
        assertEquals("g0/1", received(silent));
        learner.expectNoMessage(Duration.ofMillis(100));
        clock.advance(ROLLOUT_TIMEOUT); // no answer again: the group is given up

        assertEquals(new DropGivenUpGroup("g0"), learner.expectMessageClass(DropGivenUpGroup.class, WAIT));
        silent.expectNoMessage(Duration.ofMillis(100));
        coach.tell(new GroupDropped("g0", GroupDropped.Reason.REDISPATCH_LIMIT)); // the learner's answer

        TestProbe<CoachProgress> progressProbe = testKit.createTestProbe();
        coach.tell(new GetProgress(progressProbe.ref()));
        CoachProgress progress = progressProbe.receiveMessage(WAIT);
        assertTrue(progress.finished(), "the job ends although its query never answers");
        assertEquals(1L, progress.groupsDropped().get(GroupDropped.Reason.REDISPATCH_LIMIT));
        Map<String, Double> metrics = PrometheusSamples.parse(new String(
                PrometheusText.scrape(ToolCoachMetrics.get(testKit.system()).registry()), StandardCharsets.UTF_8));
        assertEquals(1.0, metrics.get("toolcoach_coach_groups_dropped_total{reason=\"redispatch_limit\"}"));
        testKit.stop(coach);
    }
}
