package dev.toolcoach.cluster.learner;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.LoggingTestKit;
import org.slf4j.event.Level;
import akka.actor.testkit.typed.javadsl.TestProbe;
import dev.toolcoach.cluster.metrics.PrometheusText;
import dev.toolcoach.cluster.metrics.ToolCoachMetrics;
import dev.toolcoach.cluster.testing.PrometheusSamples;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.coach.CursorCodec;
import dev.toolcoach.cluster.protocol.AdapterPublisherProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.DropGivenUpGroup;
import dev.toolcoach.cluster.protocol.CoachProtocol.GetCursor;
import dev.toolcoach.cluster.protocol.LearnerProtocol.GetLearnerStatus;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupTrained;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.protocol.LearnerProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.LearnerStarted;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import dev.toolcoach.cluster.protocol.CoachProtocol.RolloutReceived;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.weights.AdapterPublisher;
import dev.toolcoach.learn.checkpoint.CheckpointStore;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.LearnerConfig;
import dev.toolcoach.learn.core.LearnerCore;
import dev.toolcoach.learn.core.LoraWeights;
import dev.toolcoach.learn.core.PeriodicCheckpoints;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.cluster.testing.Plans;
import dev.toolcoach.cluster.job.GroupPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The learner actor over a real LearnerCore on a tiny random model with LoRA, whose rollouts the model
 * samples itself; the test plays the coach, the athletes and the adapter publisher. Every message crosses
 * its serializer (serialize-messages = on).
 */
class LearnerActorTest {
    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int G = 4;

    private TinyAgentModel tiny;
    private LearnerCore core;
    private final ExecutorService training = Executors.newSingleThreadExecutor();
    private final TestProbe<CoachProtocol.Command> coach = testKit.createTestProbe();
    private final TestProbe<AdapterPublisherProtocol.Command> publisher = testKit.createTestProbe();
    private final TestProbe<TraceAck> acks = testKit.createTestProbe();
    private final Events events = new Events();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    @BeforeEach
    void setUp() {
        tiny = new TinyAgentModel(11);
        core = new LearnerCore(tiny.model, new LoraWeights(tiny.adapter), LearnerConfig.defaults(1e-2));
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        training.shutdown();
        assertTrue(training.awaitTermination(30, TimeUnit.SECONDS));
        core.close();
        tiny.close();
    }

    @Test
    void groupsAreAckedReportedTrainedPublishedAndCheckpointedWithTheCoachsCursorAndASmallerLastBatchTrains(@TempDir Path dir) {
        CheckpointStore store = new CheckpointStore(dir, 3);
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(Plans.plan(G, 2, 2, 3), 0, 0), Optional.of(new PeriodicCheckpoints(store, 1)));
        assertEquals(0, published().version(), "the learner first publishes the adapter it starts with");

        deliver(learner, "g0");
        deliver(learner, "g1");
        assertEquals(2 * G, acks.receiveSeveralMessages(2 * G, WAIT).size());
        List<CoachProtocol.Command> reports = untilCursorAsked(new CoachCursor(3, 0, 3, List.of(), 1, 2, 2, GroupCounts.NONE));
        assertEquals(2 * G, count(reports, RolloutReceived.class));
        assertEquals(List.of(new GroupTrained("g0", 1), new GroupTrained("g1", 1)), only(reports, GroupTrained.class));
        assertEquals(1, published().version());
        StepReport first = events.step();
        assertEquals(1, first.step());
        assertEquals(1, first.version());
        assertEquals(2, first.scored().size());
        assertEquals(2, first.informativeGroups(), "the test rewards differ within each group");
        assertTrue(first.published());

        // the third and last group trains alone: no other group can come
        deliver(learner, "g2");
        assertEquals(G, acks.receiveSeveralMessages(G, WAIT).size());
        List<CoachProtocol.Command> last = untilCursorAsked(new CoachCursor(3, 0, 3, List.of(), 2, 3, 3, GroupCounts.NONE));
        assertEquals(List.of(new GroupTrained("g2", 2)), only(last, GroupTrained.class));
        StepReport second = events.step();
        assertEquals(2, second.step(), "the job's second batch");
        assertEquals(2, second.version());
        LearnerAccounts accounts = events.finished();
        assertEquals(3, accounts.trained());
        assertEquals(0, accounts.pending());

        // the checkpoint holds the step, the version and the cursor the coach gave after the step's reports
        var restored = store.loadLatest().checkpoint().orElseThrow();
        assertEquals(2, restored.step());
        assertEquals(2, CursorCodec.decode(restored.cursor()).policyVersion());

        // a late duplicate is acked and reported (the coach counts it) but never trained
        learner.tell(new TraceDelivery(rollout("g0", 0), acks.getRef()));
        assertEquals("g0/0", acks.receiveMessage(WAIT).rolloutId());
        assertEquals(new RolloutReceived("g0/0"), coach.receiveMessage(WAIT));
        TestProbe<LearnerStatus> status = testKit.createTestProbe();
        learner.tell(new GetLearnerStatus(status.getRef()));
        LearnerStatus s = status.receiveMessage(WAIT);
        assertEquals(1, s.accounts().duplicates());
        assertTrue(s.finished());
        assertEquals(2, s.steps());
    }

    @Test
    void aGroupTheRewardCannotScoreIsDroppedAndAGroupOlderThanTheLagIsDroppedAsStale() {
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(Plans.plan(G, 2, 0, 4), 0, 0), Optional.empty());
        published();
        Trace[] staleGroup = new Trace[G];
        for (int i = 0; i < G; i++) staleGroup[i] = rollout("g2", i); // sampled by version 0

        deliver(learner, "bad"); // its example has no parity: the reward throws
        List<CoachProtocol.Command> badReports = coach.receiveSeveralMessages(G + 1, WAIT);
        assertEquals(List.of(new GroupDropped("bad", GroupDropped.Reason.REWARD_FAILED)), only(badReports, GroupDropped.class),
                "dropped as soon as it is scored");
        deliver(learner, "g0");
        deliver(learner, "g1");
        List<CoachProtocol.Command> reports = coach.receiveSeveralMessages(2 * G + 2, WAIT);
        assertEquals(List.of(new GroupTrained("g0", 1), new GroupTrained("g1", 1)), only(reports, GroupTrained.class));
        StepReport step = events.step();
        assertEquals(List.of("bad"), step.dropped(), "the step reports the drop since the previous step");
        assertEquals(3, step.groupsSampled());

        for (Trace t : staleGroup) learner.tell(new TraceDelivery(t, acks.getRef()));
        List<CoachProtocol.Command> staleReports = coach.receiveSeveralMessages(G + 1, WAIT);
        assertEquals(List.of(new GroupDropped("g2", GroupDropped.Reason.STALE_POLICY)), only(staleReports, GroupDropped.class));
        LearnerAccounts accounts = events.finished();
        assertEquals(2, accounts.trained());
        assertEquals(1, accounts.dropped().get(GroupDropped.Reason.REWARD_FAILED));
        assertEquals(1, accounts.dropped().get(GroupDropped.Reason.STALE_POLICY));
    }

    @Test
    void withDynamicSamplingAGroupWhoseRewardsAreAllEqualIsDroppedAsNoSignalAndTheStepWaitsForARefill() {
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(new GroupPlan(G, 2, 0, 2, 6), 0, 0), Optional.empty());
        published();
        deliver(learner, "g0");
        deliver(learner, "same"); // its example asks for parity 2, which no token has: every rollout scores 0
        List<CoachProtocol.Command> reports = coach.receiveSeveralMessages(2 * G + 1, WAIT);
        assertEquals(List.of(new GroupDropped("same", GroupDropped.Reason.NO_SIGNAL)), only(reports, GroupDropped.class));
        assertEquals(List.of(), only(reports, GroupTrained.class), "one informative group of two: no step yet");

        deliver(learner, "g1");
        List<CoachProtocol.Command> refill = coach.receiveSeveralMessages(G + 2, WAIT);
        assertEquals(List.of(new GroupTrained("g0", 1), new GroupTrained("g1", 1)), only(refill, GroupTrained.class));
        StepReport step = events.step();
        assertEquals(3, step.groupsSampled());
        assertEquals(2, step.informativeGroups());
        assertEquals(1, events.finished().dropped().get(GroupDropped.Reason.NO_SIGNAL));
        Map<String, Double> metrics = PrometheusSamples.parse(new String(
                PrometheusText.scrape(ToolCoachMetrics.get(testKit.system()).registry()), StandardCharsets.UTF_8));
        assertEquals(3.0, metrics.get("toolcoach_learner_last_groups_sampled"), "on /metrics");
        assertEquals(2.0 / 3, metrics.get("toolcoach_learner_last_informative_fraction"), 1e-9);
    }

    @Test
    void aGroupTheCoachGaveUpIsDroppedAsRedispatchLimitAndTheJobEnds() {
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(Plans.plan(G, 2, 0, 1), 0, 0), Optional.empty());
        published();
        learner.tell(new TraceDelivery(rollout("g0", 0), acks.getRef())); // its other rollout never comes
        assertEquals(new RolloutReceived("g0/0"), coach.expectMessageClass(RolloutReceived.class, WAIT));

        learner.tell(new DropGivenUpGroup("g0"));
        assertEquals(new GroupDropped("g0", GroupDropped.Reason.REDISPATCH_LIMIT), coach.expectMessageClass(GroupDropped.class, WAIT));
        assertEquals(0, events.finished().trained(), "the job's only group is closed: the job is over");
        learner.tell(new DropGivenUpGroup("g0"));
        coach.expectNoMessage(Duration.ofMillis(200));
    }

    @Test
    void aProbeDueAtAStepRunsAfterItsCheckpointWithThatStepsAdapterAndTheNextStepWaitsForIt(@TempDir Path dir) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        LinkedBlockingQueue<String> probed = new LinkedBlockingQueue<>();
        StepProbe probe = new StepProbe() {
            @Override
            public boolean due(long jobStep) {
                return true;
            }

            @Override
            public void run(long jobStep, AdapterWeights adapter) {
                probed.add("step " + jobStep + ", version " + adapter.version());
                try {
                    assertTrue(release.await(WAIT.toSeconds(), TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        };
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(Plans.plan(G, 2, 2, 3), 0, 0),
                Optional.of(new PeriodicCheckpoints(new CheckpointStore(dir, 3), 1)), Optional.of(probe));
        published();
        deliver(learner, "g0");
        deliver(learner, "g1");
        untilCursorAsked(new CoachCursor(3, 0, 3, List.of(), 1, 2, 2, GroupCounts.NONE));
        assertEquals("step 1, version 1", probed.poll(WAIT.toSeconds(), TimeUnit.SECONDS), "after the step's checkpoint");

        deliver(learner, "g2");
        assertEquals(G, coach.receiveSeveralMessages(G, WAIT).stream().filter(RolloutReceived.class::isInstance).count());
        coach.expectNoMessage(Duration.ofMillis(500)); // the last group is complete, but no step runs while the probe does
        release.countDown();
        List<CoachProtocol.Command> last = untilCursorAsked(new CoachCursor(3, 0, 3, List.of(), 2, 3, 3, GroupCounts.NONE));
        assertEquals(List.of(new GroupTrained("g2", 2)), only(last, GroupTrained.class));
        assertEquals("step 2, version 2", probed.poll(WAIT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of(1L, 2L), List.of(events.step().step(), events.step().step()));
        assertEquals(3, events.finished().trained(), "the job ends after the last step's probe");
    }

    @Test
    void aRolloutThatArrivesAfterTheJobsRunEndedStopsTheLearnerInsteadOfFailingIt() {
        ActorRef<LearnerProtocol.Command> learner = spawn(new LearnerSettings(Plans.plan(G, 2, 0, 4), 0, 0), Optional.empty());
        published();
        training.shutdown(); // a cancelled run shuts its training thread down; rollouts in flight still come
        TestProbe<Object> watcher = testKit.createTestProbe();
        LoggingTestKit.empty().withLogLevel(Level.ERROR).withOccurrences(0).expect(testKit.system(), () -> {
            deliver(learner, "g0");
            watcher.expectTerminated(learner, WAIT);
            return null;
        });
        assertEquals(G, acks.receiveSeveralMessages(G, WAIT).size(), "every trace that came was acked");
    }

    private ActorRef<LearnerProtocol.Command> spawn(LearnerSettings settings, Optional<PeriodicCheckpoints> checkpoints) {
        return spawn(settings, checkpoints, Optional.empty());
    }

    private ActorRef<LearnerProtocol.Command> spawn(LearnerSettings settings, Optional<PeriodicCheckpoints> checkpoints,
                                                    Optional<StepProbe> probe) {
        LearnerJob job = new LearnerJob(settings, core, Algorithm.GRPO, 0, ParityReward.INSTANCE,
                queryId -> queryId.equals("q-bad") ? RewardContext.of(queryId, "", null)
                        : RewardContext.of(queryId, "", null).withField("parity", queryId.equals("q-same") ? 2 : 0),
                coach.getRef(), publisher.getRef(), checkpoints, probe, events, training);
        ActorRef<LearnerProtocol.Command> learner = testKit.spawn(LearnerActor.create(job));
        assertEquals(new LearnerStarted(learner), coach.expectMessageClass(LearnerStarted.class, WAIT), "the coach learns where it is");
        return learner;
    }

    private void deliver(ActorRef<LearnerProtocol.Command> learner, String groupId) {
        for (int i = 0; i < G; i++) learner.tell(new TraceDelivery(rollout(groupId, i), acks.getRef()));
    }

    private Trace rollout(String groupId, int index) {
        int[] prompt = {1, 3 + Math.floorMod(groupId.hashCode(), TinyAgentModel.VOCAB - 3)};
        return tiny.rollout(groupId + "/" + index, groupId, prompt, 31L * index + groupId.hashCode());
    }

    private AdapterWeights published() {
        return assertInstanceOf(AdapterPublisher.Publish.class, publisher.receiveMessage(WAIT)).weights();
    }

    /** Coach messages up to and including the cursor request, which is answered with {@code cursor}. */
    private List<CoachProtocol.Command> untilCursorAsked(CoachCursor cursor) {
        List<CoachProtocol.Command> seen = new ArrayList<>();
        while (true) {
            CoachProtocol.Command m = coach.receiveMessage(WAIT);
            seen.add(m);
            if (m instanceof GetCursor ask) {
                ask.replyTo().tell(cursor);
                return seen;
            }
        }
    }

    private static long count(List<CoachProtocol.Command> messages, Class<?> type) {
        return messages.stream().filter(type::isInstance).count();
    }

    private static <T> List<T> only(List<CoachProtocol.Command> messages, Class<T> type) {
        return messages.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** What the listener heard, in order. */
    private static final class Events implements LearnerListener {
        private final LinkedBlockingQueue<Object> heard = new LinkedBlockingQueue<>();

        @Override
        public void stepDone(StepReport report) {
            heard.add(report);
        }

        @Override
        public void finished(LearnerAccounts accounts) {
            heard.add(accounts);
        }

        @Override
        public void failed(Throwable cause) {
            heard.add(cause);
        }

        StepReport step() {
            return assertInstanceOf(StepReport.class, next());
        }

        LearnerAccounts finished() {
            Object o;
            do {
                o = next();
            } while (o instanceof StepReport);
            return assertInstanceOf(LearnerAccounts.class, o);
        }

        private Object next() {
            try {
                Object o = heard.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertNotNull(o, "the listener heard nothing in " + WAIT);
                return o;
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
