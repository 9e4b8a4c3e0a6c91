package dev.toolcoach.brain.eval;

import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.ToolEnvironment;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.policy.LocalPolicy;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.tasks.TraceReward;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One evaluation phase: the model, with an adapter when there is one, loaded once into one engine, and the agent's tools
 * open, for every {@link #evaluate} and {@link #passAtK} of the phase. Close it when the phase ends.
 */
public final class EvalSession implements AutoCloseable {
    /** Most sequences the engine decodes together. */
    public static final int MAX_BATCH = 64;

    private final LocalPolicy policy;
    private final AutoCloseable toolsOwner;
    private final ToolEnvironment tools;
    private final AgentConfig agent;
    private final UnaryOperator<List<TaskExample>> offer;
    private final Progress progress;
    private final Runnable afterEach;

    /**
     * @param rollouts  the most rollouts one call of the phase runs at once (the engine's batch, up to {@link #MAX_BATCH})
     * @param tools      the agent's open tools, closed with the session
     * @param agentTools those tools as evaluations call them (with ADAPT, routed by its preferences)
     * @param agent     the agent as training samples it: pass@k samples so, an evaluation decodes greedily within its limits
     * @param offer     what each example is offered (tool retrieval), applied before a call runs
     * @param afterEach run after every call (ADAPT keeps its preferences)
     */
    public static EvalSession open(Path model, Optional<AdapterWeights> adapter, int rollouts, AutoCloseable tools,
                                   ToolEnvironment agentTools, AgentConfig agent, UnaryOperator<List<TaskExample>> offer,
                                   Progress progress, Runnable afterEach, ComputeDevice device) {
        LocalPolicy policy = LocalPolicy.load(model, null, null, Math.max(1, Math.min(rollouts, MAX_BATCH)), device);
        try {
            EvalSession session = new EvalSession(policy, tools, agentTools, agent, offer, progress, afterEach);
            adapter.ifPresent(session::useAdapter);
            return session;
        } catch (RuntimeException e) {
            policy.close();
            throw e;
        }
    }

    private EvalSession(LocalPolicy policy, AutoCloseable toolsOwner, ToolEnvironment tools, AgentConfig agent,
                        UnaryOperator<List<TaskExample>> offer, Progress progress, Runnable afterEach) {
        this.policy = policy;
        this.toolsOwner = toolsOwner;
        this.tools = tools;
        this.agent = agent;
        this.offer = offer;
        this.progress = progress;
        this.afterEach = afterEach;
    }

    /** Evaluates with {@code adapter} from here on (a held-out evaluation while training gets each probed step's). */
    public void useAdapter(AdapterWeights adapter) {
        policy.engine().setAdapter(adapter);
        policy.engine().whenAdapterAtLeast(adapter.version()).join();
    }

    /** Each example once, greedily, scored by {@code score}. */
    public EvaluationReport evaluate(List<TaskExample> examples, TraceReward score) {
        EvaluationReport report;
        try (Progress.Meter meter = progress.start("evaluate", examples.size(), "examples")) {
            report = evaluation(score).evaluate(offer.apply(examples), meter);
        }
        afterEach.run();
        return report;
    }

    /** pass@k of the policy as training samples it: {@code samples} rollouts of each example, scored by {@code score}. */
    public PassAtK passAtK(List<TaskExample> examples, TraceReward score, int samples, int k) {
        PassAtK result = evaluation(score).passAtK(offer.apply(examples), samples, k);
        afterEach.run();
        return result;
    }

    private TaskEvaluation evaluation(TraceReward score) {
        return new TaskEvaluation(policy.tokenizer(), policy.chatFormat(), policy.generator(), tools, agent, score);
    }

    @Override
    public void close() {
        try (LocalPolicy closing = policy) {
            toolsOwner.close();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the evaluation's tools: " + e.getMessage(), e);
        }
    }
}
