package dev.toolcoach.brain.scratch;

import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.tasks.OracleRollout;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.CompletableFuture;

/**
 * What a task's model will read and write: each example's oracle rollout through the real tools and
 * the agent's system prompt, as the whole ChatML text of its context (prompt, replies, tool responses).
 */
public final class TaskTexts {

    /** Oracle rollouts in flight at once. */
    static final int IN_FLIGHT = 64;

    private TaskTexts() {
    }

    /** @throws IllegalStateException when an oracle rollout does not end with its answer */
    public static List<String> of(List<TaskExample> examples, ToolEnvironment tools, AgentConfig agent) {
        return of(examples, tools, agent, Progress.Meter.NONE);
    }

    /** @param meter stepped as each oracle rollout ends */
    public static List<String> of(List<TaskExample> examples, ToolEnvironment tools, AgentConfig agent, Progress.Meter meter) {
        ByteTokenizer bytes = ByteTokenizer.chatMl();
        // the replay counts bytes, several per model token, so its token limits are lifted
        AgentConfig replay = agent.withLimits(agent.maxTurns(), Integer.MAX_VALUE)
                .withSampling(SamplingParams.greedy(Integer.MAX_VALUE));
        // a window of rollouts in flight, not every example at once: a tool node queues a bounded number of calls
        // (toolcoach.tools.executor.max-queued-calls) and answers the rest UNAVAILABLE
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<Trace>> runs = new ArrayList<>();
        for (TaskExample e : examples) {
            window.acquireUninterruptibly();
            runs.add(OracleRollout.run(e, tools, replay).toCompletableFuture().whenComplete((t, failure) -> {
                window.release();
                meter.step();
            }));
        }
        return runs.stream().map(CompletableFuture::join).map(t -> {
            if (t.termination() != Termination.ANSWER) {
                throw new IllegalStateException("the oracle of " + t.queryId() + " ended with " + t.termination()
                        + (t.error() == null ? "" : ": " + t.error()));
            }
            return bytes.decode(t.tokens().tokenIds());
        }).toList();
    }
}
