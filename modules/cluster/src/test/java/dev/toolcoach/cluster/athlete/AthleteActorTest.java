package dev.toolcoach.cluster.athlete;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.cluster.coach.CoachActor;
import dev.toolcoach.cluster.coach.CoachSettings;
import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.CoachProtocol.RequestRollouts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceAck;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tools.arithmetic.ArithmeticTools;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.spi.ToolMethod;
import dev.toolcoach.tools.spi.ToolSuite;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.cluster.testing.Plans;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Athletes running the real agent loop (scripted model, in-process arithmetic tools) against a real
 * coach or a coach probe, the test playing the learner. Every message crosses its serializer
 * (serialize-messages = on): traces through Kryo, the rest through CBOR.
 */
class AthleteActorTest {

    private static final ActorTestKit testKit = ActorTestKit.create();
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String CALL = "<think>add them</think><tool_call>[{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}]</tool_call>";
    private static final String ANSWER = "<think>the tool said 5</think><answer>5</answer>";

    private final ToolExecutor tools = new ToolExecutor(ArithmeticTools.suite(), ExecutorSettings.defaults());
    private final ByteTokenizer tokenizer = ByteTokenizer.chatMl();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    @AfterEach
    void closeTools() {
        tools.close();
    }

    private ActorRef<AthleteProtocol.Command> athlete(ActorRef<CoachProtocol.Command> coach, ActorRef<TraceDelivery> learner,
                                             ReplayGenerator generator, DeliverySettings delivery) {
        RolloutRunner runner = new RolloutRunner(tokenizer, new ChatMlFormat(), generator, tools, AgentConfig.defaults(),
                ForkJoinPool.commonPool(), PolicyGate.OPEN, 0, WAIT);
        return testKit.spawn(AthleteActor.create(new AthleteJob(coach, learner, runner, delivery)));
    }

    private static TaskExample question(String id) {
        return TaskExample.question(id, "What is 2 + 3?", "5", List.of(), Map.of());
    }

    private static Trace delivered(TestProbe<TraceDelivery> learner, String rolloutId) {
        Trace trace = learner.expectMessageClass(TraceDelivery.class, WAIT).trace();
        assertEquals(rolloutId, trace.rolloutId());
        return trace;
    }

    private static void ack(TestProbe<TraceDelivery> learner, String rolloutId) {
        TraceDelivery delivery = learner.expectMessageClass(TraceDelivery.class, WAIT);
        assertEquals(rolloutId, delivery.trace().rolloutId());
        delivery.replyTo().tell(new TraceAck(rolloutId));
    }

    @Test
    void pullsRolloutsFromTheCoachAndResendsEachTraceUntilTheLearnerAcks() {
        TaskExample example = TaskExample.question("q0", "What is 2 + 3?", "5", List.of(), Map.of("unit", "none"));
        // one query, a group of 2, and the job has only that group
        ActorRef<CoachProtocol.Command> coach = testKit.spawn(CoachActor.create(Plans.coach(Plans.plan(2, 1, 0, 1), Duration.ofMinutes(1)),
                List.of(example), Optional.empty(), Clock.systemUTC(), Duration.ofSeconds(1)));
        TestProbe<TraceDelivery> learner = testKit.createTestProbe();
        ReplayGenerator generator = ReplayGenerator.chatMl(tokenizer, List.of(CALL, ANSWER, CALL, ANSWER));
        athlete(coach, learner.ref(), generator, new DeliverySettings(Duration.ofMillis(300), 5));

        Trace first = delivered(learner, "g0/0");
        assertEquals("g0", first.groupId());
        assertEquals("q0", first.queryId());
        assertEquals("What is 2 + 3?", first.query());
        assertEquals(Termination.ANSWER, first.termination());
        assertEquals("5", first.finalAnswer());
        assertEquals("5", first.toolResults().get(0).text());
        assertEquals("5", first.metadata().get("gold_answer"));
        assertEquals("none", first.metadata().get("unit"), "the example's gold facts go to the reward");
        assertRecordsExactly(generator.replies().subList(0, 2), first.tokens());

        TraceDelivery resent = learner.expectMessageClass(TraceDelivery.class, WAIT);
        assertEquals(first, resent.trace(), "no ack yet: the same trace is sent again");
        resent.replyTo().tell(new TraceAck("g0/0"));
        Trace second = delivered(learner, "g0/1"); // the ack freed the athlete, which asked the coach again
        assertRecordsExactly(generator.replies().subList(2, 4), second.tokens());
        assertNotEquals(generator.requests().get(0).sampling().seed(), generator.requests().get(2).sampling().seed(),
                "each rollout of a group samples with its own seed");
        assertEquals(AgentConfig.defaults().sampling().seed() * 31 + "g0/1".hashCode(), generator.requests().get(2).sampling().seed(),
                "the base seed × 31 + the rollout id's hash, as in the in-process loop");
        ack(learner, "g0/1");
        learner.expectNoMessage(Duration.ofMillis(700)); // acked traces are not sent again
    }

    @Test
    void givesUpAfterBoundedSendsQueuesExtraWorkAndTurnsFailedRunsIntoErrorTraces() {
        TestProbe<CoachProtocol.Command> coach = testKit.createTestProbe();
        TestProbe<TraceDelivery> learner = testKit.createTestProbe();
        ReplayGenerator generator = ReplayGenerator.chatMl(tokenizer, List.of(CALL, ANSWER));
        ActorRef<AthleteProtocol.Command> athlete = athlete(coach.ref(), learner.ref(), generator,
                new DeliverySettings(Duration.ofMillis(100), 3));
        assertEquals(athlete, coach.expectMessageClass(RequestRollouts.class, WAIT).athlete());

        athlete.tell(new AssignRollout("g7/0", "g7", question("q7"), 0));
        for (int send = 0; send < 3; send++) assertEquals("5", delivered(learner, "g7/0").finalAnswer());
        assertEquals(1, coach.expectMessageClass(RequestRollouts.class, WAIT).count(), "after 3 sends it asks for work");
        learner.expectNoMessage(Duration.ofMillis(300));

        athlete.tell(new AssignRollout("g8/0", "g8", question("q8"), 0));
        // more than the athlete asked for: it waits its turn instead of being lost
        athlete.tell(new AssignRollout("g9/0", "g9", question("q9"), 0));
        for (String rolloutId : List.of("g8/0", "g9/0")) {
            TraceDelivery failedRun = learner.expectMessageClass(TraceDelivery.class, WAIT);
            assertEquals(rolloutId, failedRun.trace().rolloutId());
            // the script is used up, so the model fails on the first turn: still a trace, with its prompt
            assertEquals(Termination.ERROR, failedRun.trace().termination());
            assertTrue(failedRun.trace().error().contains("only 2 replies"), failedRun.trace().error());
            assertTrue(failedRun.trace().tokens().promptLength() > 0);
            failedRun.replyTo().tell(new TraceAck(rolloutId));
        }
        coach.expectMessageClass(RequestRollouts.class, WAIT);
        coach.expectNoMessage(Duration.ofMillis(200)); // one request per free slot, none while work waited
    }

    /** A tool that runs until its rollout is released, when the tool server interrupts it. */
    public static final class SlowTool {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch interrupted = new CountDownLatch(1);

        @ToolMethod(description = "never returns on its own")
        public String hang() {
            started.countDown();
            try {
                new CountDownLatch(1).await();
                return "unreachable";
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        }
    }

    @Test
    void aRolloutPastItsDeadlineIsStoppedItsToolCallCancelledAndNoTraceSent() throws Exception {
        SlowTool slow = new SlowTool();
        try (ToolExecutor slowTools = new ToolExecutor(ToolSuite.builder("slow").addAnnotated(slow).build(),
                ExecutorSettings.defaults().withCallTimeout(Duration.ofSeconds(60)))) {
            TestProbe<CoachProtocol.Command> coach = testKit.createTestProbe();
            TestProbe<TraceDelivery> learner = testKit.createTestProbe();
            ReplayGenerator generator = ReplayGenerator.chatMl(tokenizer, List.of(
                    "<tool_call>[{\"name\": \"hang\", \"arguments\": {}}]</tool_call>", ANSWER));
            // the job's rollout timeout, far below the tool's 60 s and the agent's own tool timeout
            RolloutRunner runner = new RolloutRunner(tokenizer, new ChatMlFormat(), generator, slowTools,
                    AgentConfig.defaults(), ForkJoinPool.commonPool(), PolicyGate.OPEN, 0, Duration.ofSeconds(2));
            ActorRef<AthleteProtocol.Command> athlete = testKit.spawn(AthleteActor.create(new AthleteJob(coach.ref(),
                    learner.ref(), runner, new DeliverySettings(Duration.ofMillis(300), 3))));
            coach.expectMessageClass(RequestRollouts.class, WAIT);

            athlete.tell(new AssignRollout("g9/0", "g9", question("q9"), 0));
            assertTrue(slow.started.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the tool call runs");

            assertEquals(1, coach.expectMessageClass(RequestRollouts.class, WAIT).count(),
                    "stopped at its deadline, the athlete asks for new work");
            assertTrue(slow.interrupted.await(WAIT.toSeconds(), TimeUnit.SECONDS),
                    "the trajectory was released, so the tool server interrupted its running call");
            learner.expectNoMessage(Duration.ofMillis(300)); // no trace: the coach has dispatched the rollout again
            assertEquals(1, generator.requests().size(), "no turn after the stop");
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cancelledCalls(slowTools) == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(10_000_000); // polling with a deadline: the executor counts the call as it ends
            }
            assertEquals(1, cancelledCalls(slowTools), "its call ended CANCELLED");
        }
    }

    private static long cancelledCalls(ToolExecutor tools) {
        return tools.metrics().snapshot().stream().filter(t -> t.tool().equals("hang"))
                .mapToLong(t -> t.count(ToolResult.Status.CANCELLED)).sum();
    }

    /** The record holds exactly the generated ids, log-probs and versions, masked 1, after the prompt. */
    private static void assertRecordsExactly(List<Generation> replies, TokenRecord tokens) {
        int total = replies.stream().mapToInt(Generation::length).sum();
        assertEquals(total, tokens.generatedCount());
        assertTrue(tokens.promptLength() > 0);
        int at = tokens.promptLength();
        for (Generation reply : replies) {
            while (tokens.lossMask()[at] == 0) at++; // skip the observation between replies
            int end = at + reply.length();
            assertArrayEquals(reply.tokenIds(), Arrays.copyOfRange(tokens.tokenIds(), at, end));
            assertArrayEquals(reply.logprobs(), Arrays.copyOfRange(tokens.behaviorLogprobs(), at, end));
            assertArrayEquals(reply.policyVersions(), Arrays.copyOfRange(tokens.policyVersions(), at, end));
            at = end;
        }
    }
}
