package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.cluster.testing.Plans;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole job against a simulated cluster whose athletes join, die, stall past deadlines and deliver
 * late, and whose learner repeats reports: every group must end trained once or dropped once, and
 * the accounts must match what the simulation saw.
 */
class RolloutSchedulerPropertyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_EVENTS = 200_000;

    /** What the simulation saw, to check the scheduler's accounts against. */
    private static final class World {
        final Random random;
        final ManualClock clock = new ManualClock();
        final RolloutScheduler<String> coach;
        final int groupSize;
        final Map<String, List<String>> held = new LinkedHashMap<>(); // live athlete → rollouts it works on
        final Map<String, Long> asked = new HashMap<>();
        final Map<String, Long> given = new HashMap<>();
        final Set<String> everSent = new HashSet<>();
        final Map<String, Set<String>> learnerTraces = new HashMap<>(); // group → rollouts the learner holds
        final Set<String> reported = new HashSet<>();
        final Map<String, String> firstReport = new HashMap<>(); // group → "trained" / a drop reason
        long firstSends;
        long resends;
        long repeatReports;
        long counted;
        long duplicates;
        int athletesBorn;

        World(long seed) {
            random = new Random(seed);
            groupSize = 1 + random.nextInt(4);
            CoachSettings settings = Plans.coach(Plans.plan(groupSize, 1 + random.nextInt(3), random.nextInt(3), 60 + random.nextInt(61)), TIMEOUT);
            coach = RolloutScheduler.start(settings, TrainingQueries.of(7), clock);
        }

        void take(List<Assignment<String>> assignments) {
            for (Assignment<String> assignment : assignments) {
                String athlete = assignment.athlete();
                assertTrue(held.containsKey(athlete), "work only goes to live athletes");
                long total = given.merge(athlete, 1L, Long::sum);
                assertTrue(total <= asked.get(athlete), athlete + " got more rollouts than it asked for");
                if (everSent.add(assignment.message().rolloutId())) firstSends++;
                else resends++;
                held.get(athlete).add(assignment.message().rolloutId());
            }
        }

        void ask(String athlete, int count) {
            asked.merge(athlete, (long) count, Long::sum);
            take(coach.request(athlete, count));
        }

        String anyLiveAthlete() {
            List<String> live = new ArrayList<>(held.keySet());
            return live.get(random.nextInt(live.size()));
        }

        void step() {
            int event = random.nextInt(100);
            if (held.isEmpty() || event < 5) {
                String athlete = "athlete-" + athletesBorn++;
                held.put(athlete, new ArrayList<>());
                ask(athlete, 1 + random.nextInt(3));
            } else if (event < 60) {
                deliverOne(anyLiveAthlete());
            } else if (event < 65 && held.size() > 1) {
                String athlete = anyLiveAthlete();
                held.remove(athlete); // its rollouts die with it
                take(coach.athleteLeft(athlete));
            } else if (event < 80) {
                clock.advance(Duration.ofSeconds(random.nextInt(8)));
                take(coach.expireDeadlines());
            } else {
                learnerReports();
            }
        }

        /** The athlete finishes a rollout (maybe one the coach already took back), the learner acks it, the athlete asks again. */
        void deliverOne(String athlete) {
            List<String> work = held.get(athlete);
            if (work.isEmpty()) return;
            String rolloutId = work.remove(random.nextInt(work.size()));
            learnerTraces.computeIfAbsent(rolloutId.substring(0, rolloutId.indexOf('/')), g -> new HashSet<>()).add(rolloutId);
            switch (coach.rolloutReceived(rolloutId)) {
                case COUNTED -> counted++;
                case DUPLICATE -> duplicates++;
                case UNKNOWN -> throw new AssertionError("the coach forgot rollout " + rolloutId);
            }
            ask(athlete, 1);
        }

        /** The learner scores every complete group it has not reported, and sometimes repeats an old report. */
        void learnerReports() {
            for (Map.Entry<String, Set<String>> group : learnerTraces.entrySet()) {
                String groupId = group.getKey();
                if (group.getValue().size() < groupSize || !reported.add(groupId)) continue;
                int roll = random.nextInt(10);
                if (roll < 7) {
                    firstReport.put(groupId, "trained");
                    take(coach.groupTrained(groupId, reported.size()));
                } else {
                    GroupDropped.Reason[] reasons = GroupDropped.Reason.values();
                    GroupDropped.Reason reason = reasons[random.nextInt(reasons.length)];
                    firstReport.put(groupId, reason.name());
                    take(coach.groupDropped(groupId, reason));
                }
            }
            if (!reported.isEmpty() && random.nextInt(4) == 0) {
                List<String> done = new ArrayList<>(reported);
                String again = done.get(random.nextInt(done.size()));
                repeatReports++;
                take(random.nextBoolean() ? coach.groupTrained(again, 0) : coach.groupDropped(again, GroupDropped.Reason.STALE_POLICY));
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
    void everyGroupEndsTrainedOnceOrDroppedOnceWithExactAccounts(long seed) {
        World world = new World(seed);
        int events = 0;
        while (!world.coach.finished()) {
            assertTrue(++events < MAX_EVENTS, "the job did not finish: " + world.coach.progress());
            world.step();
        }
        CoachProgress progress = world.coach.progress();
        long groups = progress.groupsDispatched();
        List<String> expectedGroups = IntStream.range(0, (int) groups).mapToObj(i -> "g" + i).toList();

        assertEquals(Set.copyOf(expectedGroups), world.firstReport.keySet(), "each dispatched group was closed by the learner");
        long trained = world.firstReport.values().stream().filter("trained"::equals).count();
        assertEquals(trained, progress.groupsTrained(), "trained exactly once each");
        for (GroupDropped.Reason reason : GroupDropped.Reason.values()) {
            assertEquals(world.firstReport.values().stream().filter(reason.name()::equals).count(), progress.groupsDropped().get(reason));
        }
        assertEquals(groups, progress.groupsTrained() + progress.groupsDropped().total(), "trained or dropped, never both");
        assertEquals(groups, progress.groupsCompleted());
        assertEquals(0, progress.groupsOpen());
        assertEquals(world.repeatReports, progress.reportsIgnored(), "repeated reports change nothing");

        assertEquals(groups * world.groupSize, progress.rolloutsDispatched());
        assertEquals(world.firstSends, progress.rolloutsDispatched());
        assertEquals(world.resends, progress.rolloutsRedispatched());
        assertEquals(world.counted, progress.rolloutsCompleted());
        assertEquals(groups * world.groupSize, progress.rolloutsCompleted());
        assertEquals(world.duplicates, progress.duplicatesDiscarded());
        assertEquals(0, progress.rolloutsInFlight());
        assertEquals(0, progress.rolloutsQueued());
        assertEquals(0, progress.rolloutsCancelled(), "the learner only closes complete groups here");
        assertTrue(progress.rolloutsRedispatched() <= progress.deadlinesMissed() + progress.athleteLosses());
        // the run really went through the paths under test
        assertTrue(progress.deadlinesMissed() > 0 && progress.athleteLosses() > 0 && progress.duplicatesDiscarded() > 0
                && progress.rolloutsRedispatched() > 0 && world.repeatReports > 0, "a run without faults: " + progress);
    }
}
