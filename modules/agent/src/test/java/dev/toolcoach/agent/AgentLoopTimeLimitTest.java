package dev.toolcoach.agent;

import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A rollout run with a time limit: stopped mid-tool-call when it passes, untouched when the rollout ends first. */
class AgentLoopTimeLimitTest {

    private static final String CALL = "<think>add them</think><tool_call>[{\"name\": \"add\", \"arguments\": {\"a\": 2, \"b\": 3}}]</tool_call>";
    private static final String ANSWER = "<think>the tool said 5</think><answer>5</answer>";
    private static final ToolSpec ADD = ToolSpec.of("add", "Adds two numbers.",
            "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"number\"}, \"b\": {\"type\": \"number\"}},"
                    + " \"required\": [\"a\", \"b\"]}");
    /** Long enough never to pass in a test unless a test means it to. */
    private static final Duration WAIT = Duration.ofSeconds(10);
    /**
     * The loop's own work runs on the thread that completed the stage before it, so a stopped run has finished
     * everything it would still do by the time its stage fails: "no further call" is then checked, not waited for.
     */
    private static final Executor SAME_THREAD = Runnable::run;

    private final ByteTokenizer tokenizer = ByteTokenizer.chatMl();

    /** Tools as a tool server runs them: "add" answers at once, or never, until the trajectory is released. */
    private static final class Tools implements ToolEnvironment {
        private final boolean answer;
        private final List<ToolCall> calls = new ArrayList<>();
        private final List<CompletableFuture<ToolResult>> running = new ArrayList<>();
        private final List<String> released = new ArrayList<>();

        Tools(boolean answer) {
            this.answer = answer;
        }

        @Override
        public List<ToolSpec> specs() {
            return List.of(ADD);
        }

        @Override
        public synchronized List<CompletionStage<ToolResult>> execute(String trajectoryId, List<ToolCall> calls) {
            this.calls.addAll(calls);
            return calls.stream().<CompletionStage<ToolResult>>map(call -> {
                if (answer) return CompletableFuture.completedFuture(ToolResult.ok(call, "5", null, 0, false));
                CompletableFuture<ToolResult> result = new CompletableFuture<>();
                running.add(result);
                return result;
            }).toList();
        }

        /** As {@code ToolExecutor.finishTrajectory}: the calls still running are answered CANCELLED. */
        @Override
        public CompletionStage<Void> release(String trajectoryId) {
            List<CompletableFuture<ToolResult>> cancelled;
            synchronized (this) {
                released.add(trajectoryId);
                cancelled = List.copyOf(running);
                running.clear();
            }
            cancelled.forEach(r -> r.complete(ToolResult.failed(calls.get(0), ToolResult.Status.CANCELLED,
                    "the rollout ended", 0)));
            return CompletableFuture.completedFuture(null);
        }

        synchronized int callCount() {
            return calls.size();
        }

        synchronized List<String> released() {
            return List.copyOf(released);
        }
    }

    private AgentLoop loop(ReplayGenerator generator, Tools tools) {
        return new AgentLoop(tokenizer, new ChatMlFormat(), generator, tools, AgentConfig.defaults(), SAME_THREAD);
    }

    private static RolloutRequest request() {
        return new RolloutRequest("g0/0", "g0", "q0", "What is 2 + 3?", Map.of());
    }

    @Test
    void aRolloutStillRunningAtItsLimitIsStoppedReleasedOnceAndStartsNothingMore() {
        ReplayGenerator generator = ReplayGenerator.chatMl(tokenizer, List.of(CALL, ANSWER));
        Tools tools = new Tools(false);

        CompletableFuture<Trace> run = loop(generator, tools).run(request(), Duration.ofSeconds(1)).toCompletableFuture();

        ExecutionException stopped = assertThrows(ExecutionException.class, () -> run.get(WAIT.toMillis(), TimeUnit.MILLISECONDS),
                "a stopped rollout yields no trace");
        assertInstanceOf(TimeoutException.class, stopped.getCause());
        assertEquals(List.of("g0/0"), tools.released(), "released once, at the stop, so its running call was cancelled");
        assertEquals(1, tools.callCount(), "no tool call after the stop");
        assertEquals(1, generator.requests().size(), "the cancelled call's result started no new turn");
    }

    @Test
    void aRolloutEndingWithinItsLimitIsUnaffected() throws Exception {
        ReplayGenerator unlimitedGenerator = ReplayGenerator.chatMl(tokenizer, List.of(CALL, ANSWER));
        Trace unlimited = loop(unlimitedGenerator, new Tools(true)).run(request()).toCompletableFuture()
                .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        ReplayGenerator generator = ReplayGenerator.chatMl(tokenizer, List.of(CALL, ANSWER));
        Tools tools = new Tools(true);

        Trace limited = loop(generator, tools).run(request(), WAIT).toCompletableFuture()
                .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertEquals(Termination.ANSWER, limited.termination());
        assertEquals("5", limited.finalAnswer());
        assertEquals(unlimited.tokens(), limited.tokens(), "the same tokens as a run without a limit");
        assertEquals(unlimited.turns(), limited.turns());
        assertEquals(List.of("g0/0"), tools.released(), "released once, when it ended");
        assertEquals(2, generator.requests().size());
    }
}
