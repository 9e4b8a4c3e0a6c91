package dev.toolcoach.brain.run;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.testkit.PerTrajectoryGenerator;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.testkit.FunctionTools;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TurnBarrierTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);
    private static final ToolSpec STEP = ToolSpec.of("step", "Does one step of work.", "{}");
    private static final ToolSpec SLOW = ToolSpec.of("slow", "Answers once the test lets it.", "{}");
    private static final ToolSpec BROKEN = ToolSpec.of("broken", "Always throws.", "{}");

    private final ByteTokenizer tokenizer = ByteTokenizer.chatMl();
    private final ChatMlFormat chat = new ChatMlFormat();

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    private static String call(String name) {
        return "<think>use " + name + "</think><tool_call>[{\"name\": \"" + name + "\", \"arguments\": {}}]</tool_call>";
    }

    private static String answer(String a) {
        return "<think>done</think><answer>" + a + "</answer>";
    }

    private static AgentConfig config(int maxTurns, int maxTotalTokens) {
        return AgentConfig.defaults().withLimits(maxTurns, maxTotalTokens).withTools(Duration.ofSeconds(10), 4000);
    }

    /** One script per trajectory. */
    private Generator scripts(Map<String, List<String>> scripts) {
        Map<String, Generator> byId = new HashMap<>();
        scripts.forEach((id, script) -> byId.put(id, ReplayGenerator.chatMl(tokenizer, script)));
        return new PerTrajectoryGenerator(byId);
    }

    private static RolloutRequest request(String id) {
        return new RolloutRequest(id, "g", "q-" + id, "Do the steps.", Map.of());
    }

    private static Trace await(CompletionStage<Trace> run) throws Exception {
        return run.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    // ----- the barrier on its own, driven by hand: each step's effect is visible at once, since held work runs on the thread that completes the phase

    @Test
    void generationWaitsUntilEveryTrajectoryAskedOrLeft() {
        PendingGenerator inner = new PendingGenerator();
        TurnBarrier barrier = TurnBarrier.turns(List.of("a", "b", "c"));
        Generator held = barrier.generator(inner);

        CompletableFuture<Generation> a = held.generate(request("a", 0)).toCompletableFuture();
        CompletableFuture<Generation> b = held.generate(request("b", 0)).toCompletableFuture();
        assertEquals(List.of(), inner.started(), "c has not asked yet");
        held.release("c");
        assertEquals(List.of("a", "b"), inner.started().stream().sorted().toList(), "c left, so the turn opens");
        assertEquals(2, barrier.running());

        inner.reply("a");
        assertTrue(a.isDone(), "without holdingReplies a reply is handed out at once");
        CompletableFuture<Generation> a1 = held.generate(request("a", 1)).toCompletableFuture();
        assertEquals(2, inner.started().size(), "a's next turn waits for b to finish its turn");
        inner.reply("b");
        assertTrue(b.isDone());
        assertEquals(2, inner.started().size(), "b's reply is in but b's turn (its tools) is not over");
        held.release("b");
        assertEquals(3, inner.started().size(), "b ended after its reply, so a goes on");
        inner.reply("a");
        assertTrue(a1.isDone());
        held.release("a");
        assertEquals(0, barrier.running());
    }

    @Test
    void holdingRepliesHandsOutATurnsRepliesTogether() {
        PendingGenerator inner = new PendingGenerator();
        TurnBarrier barrier = TurnBarrier.holdingReplies(List.of("a", "b"));
        Generator held = barrier.generator(inner);
        CompletableFuture<Generation> a = held.generate(request("a", 0)).toCompletableFuture();
        CompletableFuture<Generation> b = held.generate(request("b", 0)).toCompletableFuture();
        inner.reply("a");
        assertFalse(a.isDone(), "a's reply waits for b's");
        inner.reply("b");
        assertTrue(a.isDone() && b.isDone());
    }

    @Test
    void aFailedGenerationReachesItsCallerAndReleasingItFreesTheOthers() {
        PendingGenerator inner = new PendingGenerator();
        TurnBarrier barrier = TurnBarrier.holdingReplies(List.of("a", "b"));
        Generator held = barrier.generator(inner);
        CompletableFuture<Generation> a = held.generate(request("a", 0)).toCompletableFuture();
        CompletableFuture<Generation> b = held.generate(request("b", 0)).toCompletableFuture();
        inner.fail("a", new IllegalStateException("engine down"));
        assertFalse(a.isDone(), "a's failure is handed out with the turn's replies, as a batched call's would be");
        inner.reply("b");
        assertTrue(b.isDone(), "a failed and so arrived: b's reply is not held for it");
        ExecutionException failure = assertThrows(ExecutionException.class, () -> a.get(1, TimeUnit.SECONDS));
        assertEquals("engine down", failure.getCause().getMessage());
        CompletableFuture<Generation> b1 = held.generate(request("b", 1)).toCompletableFuture();
        assertEquals(2, inner.started().size());
        held.release("a");
        assertEquals(3, inner.started().size(), "the loop released the failed a, so b's next turn opens");
        inner.reply("b");
        assertTrue(b1.isDone());
    }

    @Test
    void refusesStrangersAndLateComersAndLeavingTwiceIsHarmless() {
        assertThrows(IllegalArgumentException.class, () -> TurnBarrier.turns(List.of("a", "a")));
        assertThrows(IllegalArgumentException.class, () -> TurnBarrier.turns(List.of()));
        TurnBarrier barrier = TurnBarrier.turns(List.of("a", "b"));
        Generator held = barrier.generator(new PendingGenerator());
        ExecutionException stranger = assertThrows(ExecutionException.class,
                () -> held.generate(request("x", 0)).toCompletableFuture().get(1, TimeUnit.SECONDS));
        assertEquals("trajectory x is not in this batch", stranger.getCause().getMessage());
        held.release("a");
        held.release("a");
        barrier.leave("x");
        assertEquals(1, barrier.running());
        ExecutionException late = assertThrows(ExecutionException.class,
                () -> held.generate(request("a", 1)).toCompletableFuture().get(1, TimeUnit.SECONDS));
        assertEquals("trajectory a has already left the batch", late.getCause().getMessage());
    }

    private static GenerationRequest request(String trajectory, int turn) {
        return new GenerationRequest(trajectory, new int[turn + 1], SamplingParams.greedy(8));
    }

    // ----- the barrier under the real agent loop

    /**
     * The fast trajectory b asks for turn 1 while a's tool is still running (the tool waits for
     * that request); the barrier must hold b's generation until a has finished its turn.
     */
    @Test
    void aFastTrajectoryWaitsForTheSlowOnesTools() throws Exception {
        EventLog log = new EventLog();
        CountDownLatch fastAsked = new CountDownLatch(1);
        log.onAsk("b", 1, fastAsked::countDown);
        FunctionTools tools = new FunctionTools(POOL).add(STEP, args -> "ok").add(SLOW, args -> await(fastAsked));
        TurnBarrier barrier = TurnBarrier.turns(List.of("a", "b"));
        Generator generator = log.asking(barrier.generator(log.starting(scripts(Map.of(
                "a", List.of(call("slow"), answer("a")),
                "b", List.of(call("step"), answer("b")))))));
        AgentLoop loop = new AgentLoop(tokenizer, chat, generator, tools, config(4, 4096), POOL);

        CompletionStage<Trace> a = loop.run(request("a"));
        CompletionStage<Trace> b = loop.run(request("b"));
        assertEquals("met", await(a).turns().get(0).actionOutput().get(0).text(),
                "b asked for turn 1 while a's tool ran");
        assertEquals(Termination.ANSWER, await(b).termination());
        assertTrue(log.indexOf("ask", "a", 1) < log.indexOf("start", "b", 1), log.toString());
        log.assertTurnBarrier(List.of("a", "b"));
    }

    /** The same batch without a barrier: b's turn 1 runs while a's tool is still running. */
    @Test
    void withoutTheBarrierTheFastTrajectoryRunsAhead() throws Exception {
        EventLog log = new EventLog();
        CountDownLatch fastStarted = new CountDownLatch(1);
        log.onStart("b", 1, fastStarted::countDown);
        FunctionTools tools = new FunctionTools(POOL).add(STEP, args -> "ok").add(SLOW, args -> await(fastStarted));
        Generator generator = log.asking(log.starting(scripts(Map.of(
                "a", List.of(call("slow"), answer("a")),
                "b", List.of(call("step"), answer("b"))))));
        AgentLoop loop = new AgentLoop(tokenizer, chat, generator, tools, config(4, 4096), POOL);

        CompletionStage<Trace> a = loop.run(request("a"));
        await(loop.run(request("b")));
        assertEquals("met", await(a).turns().get(0).actionOutput().get(0).text(),
                "b started turn 1 while a's tool ran");
        assertTrue(log.indexOf("start", "b", 1) < log.indexOf("ask", "a", 1), log.toString());
    }

    /**
     * A batch where runs end every way a run can end, at different turns, spread over two loops with
     * different limits that share the barrier: every run completes, none starts a turn before the
     * batch finished the previous one, and every run leaves.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void runsEndingEveryWayLeaveTheBarrierAndNoneRunsAhead(boolean holdReplies) throws Exception {
        Map<String, List<String>> scripts = new LinkedHashMap<>();
        scripts.put("answer-at-once", List.of(answer("0")));
        scripts.put("two-steps", List.of(call("step"), call("step"), answer("2")));
        scripts.put("four-steps", List.of(call("step"), call("step"), call("step"), call("step"), answer("4")));
        scripts.put("turn-limit", List.of(call("step"), call("step"), call("step"), call("step"), call("step"), call("step")));
        scripts.put("engine-error", List.of(call("step"), call("step")));
        scripts.put("parse-error", List.of("<think>hmm</think><tool_call>not json</tool_call>", answer("p")));
        scripts.put("tool-error", List.of(call("broken"), answer("t")));
        scripts.put("no-room", List.of(answer("never asked")));
        Map<String, Termination> expected = Map.of("answer-at-once", Termination.ANSWER, "two-steps", Termination.ANSWER,
                "four-steps", Termination.ANSWER, "turn-limit", Termination.MAX_TURNS, "engine-error", Termination.ERROR,
                "parse-error", Termination.ANSWER, "tool-error", Termination.ANSWER, "no-room", Termination.MAX_TOKENS);

        List<String> ids = List.copyOf(scripts.keySet());
        EventLog log = new EventLog();
        TurnBarrier barrier = holdReplies ? TurnBarrier.holdingReplies(ids) : TurnBarrier.turns(ids);
        Generator generator = log.asking(barrier.generator(log.starting(scripts(scripts))));
        FunctionTools tools = new FunctionTools(POOL).add(STEP, args -> "ok").add(BROKEN, args -> {
            throw new IllegalStateException("tool down");
        });
        AgentLoop roomy = new AgentLoop(tokenizer, chat, generator, tools, config(5, 8192), POOL);
        AgentLoop cramped = new AgentLoop(tokenizer, chat, generator, tools, config(5, 10), POOL);

        Map<String, CompletionStage<Trace>> runs = new LinkedHashMap<>();
        for (String id : ids) runs.put(id, (id.equals("no-room") ? cramped : roomy).run(request(id)));
        for (String id : ids) {
            assertEquals(expected.get(id), await(runs.get(id)).termination(), id);
        }
        assertEquals(0, barrier.running(), "every run left");
        log.assertTurnBarrier(ids);
        if (holdReplies) log.assertRepliesHeld(ids);
    }

    private static String await(CountDownLatch latch) {
        try {
            return latch.await(10, TimeUnit.SECONDS) ? "met" : "alone";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /**
     * What happened, in order: "ask" when the loop asks for turn t (before the barrier), "start" and
     * "generated" when the engine behind the barrier begins and ends it, "reply" when the loop gets
     * it, and "leave" when the loop releases the run. A failed stage counts as ended like any other.
     */
    private static final class EventLog {
        private final List<Event> events = new ArrayList<>();
        private final Map<Event, Runnable> hooks = new HashMap<>();

        record Event(String kind, String trajectory, int turn) {
        }

        void onAsk(String trajectory, int turn, Runnable hook) {
            hooks.put(new Event("ask", trajectory, turn), hook);
        }

        void onStart(String trajectory, int turn, Runnable hook) {
            hooks.put(new Event("start", trajectory, turn), hook);
        }

        void add(String kind, String trajectory, int turn) {
            Event event = new Event(kind, trajectory, turn);
            Runnable hook;
            synchronized (this) {
                events.add(event);
                hook = hooks.get(event);
            }
            if (hook != null) hook.run();
        }

        synchronized int indexOf(String kind, String trajectory, int turn) {
            int i = events.indexOf(new Event(kind, trajectory, turn));
            assertTrue(i >= 0, "no " + kind + " of " + trajectory + " turn " + turn + " in " + events);
            return i;
        }

        /** The loop's side of the barrier. */
        Generator asking(Generator inner) {
            return recording(inner, "ask", "reply");
        }

        /** The engine's side of the barrier. */
        Generator starting(Generator inner) {
            return recording(inner, "start", "generated");
        }

        private Generator recording(Generator inner, String before, String after) {
            Map<String, Integer> turns = new HashMap<>();
            return new Generator() {
                @Override
                public CompletionStage<Generation> generate(GenerationRequest request) {
                    String id = request.trajectoryId();
                    int turn;
                    synchronized (turns) {
                        turn = turns.merge(id, 1, Integer::sum) - 1;
                    }
                    add(before, id, turn);
                    return inner.generate(request).whenComplete((g, e) -> add(after, id, turn));
                }

                @Override
                public void release(String trajectoryId) {
                    if (before.equals("ask")) add("leave", trajectoryId, -1);
                    inner.release(trajectoryId);
                }
            };
        }

        /** No trajectory starts turn t before every trajectory of the batch asked for turn t or left. */
        synchronized void assertTurnBarrier(List<String> batch) {
            assertBefore("start", "ask", batch);
        }

        /** No trajectory gets its reply of turn t before every reply of turn t is generated (or failed). */
        synchronized void assertRepliesHeld(List<String> batch) {
            assertBefore("reply", "generated", batch);
        }

        private void assertBefore(String kind, String precondition, List<String> batch) {
            Function<String, Integer> leftAt = id -> events.indexOf(new Event("leave", id, -1));
            int checked = 0;
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                if (!e.kind.equals(kind)) continue;
                for (String other : batch) {
                    int met = events.indexOf(new Event(precondition, other, e.turn));
                    int left = leftAt.apply(other);
                    assertTrue((met >= 0 && met < i) || (left >= 0 && left < i),
                            e + " came before " + other + " had a '" + precondition + "' of turn " + e.turn
                                    + " or left: " + events);
                }
                checked++;
            }
            assertTrue(checked > 0, "nothing of kind " + kind + " happened");
        }

        @Override
        public synchronized String toString() {
            return events.toString();
        }
    }

    /** A generator whose replies the test hands out, one trajectory at a time. */
    private static final class PendingGenerator implements Generator {
        private final List<String> started = new ArrayList<>();
        private final Map<String, CompletableFuture<Generation>> pending = new HashMap<>();

        @Override
        public synchronized CompletionStage<Generation> generate(GenerationRequest request) {
            started.add(request.trajectoryId());
            CompletableFuture<Generation> reply = new CompletableFuture<>();
            pending.put(request.trajectoryId(), reply);
            return reply;
        }

        synchronized List<String> started() {
            return List.copyOf(started);
        }

        void reply(String trajectory) {
            take(trajectory).complete(new Generation(new int[]{1}, new float[]{-0.5f}, new int[]{0}, "x",
                    FinishReason.STOP_TOKEN));
        }

        void fail(String trajectory, Exception e) {
            take(trajectory).completeExceptionally(e);
        }

        private synchronized CompletableFuture<Generation> take(String trajectory) {
            CompletableFuture<Generation> reply = pending.remove(trajectory);
            assertTrue(reply != null, "no pending request of " + trajectory);
            return reply;
        }
    }
}
