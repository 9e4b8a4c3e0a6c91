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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Evaluates a policy on examples: each example once through the agent loop with greedy decoding, or n times sampled
 * for {@link PassAtK}; all runs submitted at once so a batching engine decodes them together, each scored by the task
 * reward.
 */
public final class TaskEvaluation {

    private final AgentLoop greedy;
    private final AgentLoop sampling;
    private final AgentConfig agent;
    private final TraceReward reward;

    /** @param agent the agent's limits, format and sampling (for pass@k); {@link #evaluate} decodes greedily within the same limits */
    public TaskEvaluation(Tokenizer tokenizer, ChatFormat chat, Generator generator, ToolEnvironment tools,
                          AgentConfig agent, TraceReward reward) {
        ToolEnvironment acting = CodeActEnvironment.forFormat(agent.actionFormat(), tools);
        this.greedy = new AgentLoop(tokenizer, chat, generator, acting,
                agent.withSampling(SamplingParams.greedy(agent.sampling().maxNewTokens())));
        this.sampling = new AgentLoop(tokenizer, chat, generator, acting, agent);
        this.agent = agent;
        this.reward = reward;
    }

    public EvaluationReport evaluate(List<TaskExample> examples) {
        return evaluate(examples, Progress.Meter.NONE);
    }

    /** @param meter stepped as each example's run ends */
    public EvaluationReport evaluate(List<TaskExample> examples, Progress.Meter meter) {
        long start = System.nanoTime();
        List<CompletableFuture<Trace>> runs = examples.stream()
                .map(e -> greedy.run(e.rolloutRequest("eval-" + e.id(), e.id())).toCompletableFuture()
                        .whenComplete((trace, failure) -> meter.step())).toList();
        return new EvaluationReport(IntStream.range(0, examples.size()).mapToObj(i -> {
            Trace trace = runs.get(i).join();
            return new EvaluationReport.Outcome(examples.get(i), trace, reward.score(examples.get(i), trace));
        }).toList(), (System.nanoTime() - start) / 1e9);
    }

    /**
     * pass@k with {@code samples} rollouts of each example, sampled as the agent config says, each with its own seed
     * from the config's and its rollout id (so a rerun samples the same); a rollout is right when the reward gives full marks.
     */
    public PassAtK passAtK(List<TaskExample> examples, int samples, int k) {
        long seed = agent.sampling().seed();
        List<List<CompletableFuture<Trace>>> runs = new ArrayList<>();
        for (TaskExample e : examples) {
            runs.add(IntStream.range(0, samples).mapToObj(i -> sampling.run(
                    e.rolloutRequest("pass-" + e.id() + "/" + i, "pass-" + e.id()).seededFrom(seed)).toCompletableFuture()).toList());
        }
        List<Integer> right = new ArrayList<>();
        for (int q = 0; q < examples.size(); q++) {
            TaskExample example = examples.get(q);
            right.add((int) runs.get(q).stream().map(CompletableFuture::join)
                    .filter(t -> new EvaluationReport.Outcome(example, t, reward.score(example, t)).correct()).count());
        }
        return PassAtK.of(right, samples, k, agent.sampling().temperature());
    }
}
