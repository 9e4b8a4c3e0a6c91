package dev.toolcoach.brain.eval;

import dev.toolcoach.tools.codeact.CodeActEnvironment;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.lm.Tokenizer;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Evaluates a policy on examples: each example once through the agent loop with greedy decoding, all
 * runs submitted at once so a batching engine decodes them together, each scored by the task reward.
 */
public final class TaskEvaluation {

    private final AgentLoop agent;
    private final TraceReward reward;

    /** @param agent the agent's limits and format; its sampling is replaced by greedy decoding of the same length */
    public TaskEvaluation(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                          AgentConfig agent, TraceReward reward) {
        this.agent = new AgentLoop(tokenizer, chat, generator, CodeActEnvironment.forFormat(agent.actionFormat(), tools),
                agent.withSampling(SamplingParams.greedy(agent.sampling().maxNewTokens())));
        this.reward = reward;
    }

    public EvaluationReport evaluate(List<TaskExample> examples) {
        return evaluate(examples, Progress.Meter.NONE);
    }

    /** @param meter stepped as each example's run ends */
    public EvaluationReport evaluate(List<TaskExample> examples, Progress.Meter meter) {
        long start = System.nanoTime();
        List<CompletableFuture<Trace>> runs = examples.stream()
                .map(e -> agent.run(e.rolloutRequest("eval-" + e.id(), e.id())).toCompletableFuture()
                        .whenComplete((trace, failure) -> meter.step())).toList();
        return new EvaluationReport(IntStream.range(0, examples.size()).mapToObj(i -> {
            Trace trace = runs.get(i).join();
            return new EvaluationReport.Outcome(examples.get(i), trace, reward.score(examples.get(i), trace));
        }).toList(), (System.nanoTime() - start) / 1e9);
    }
}
