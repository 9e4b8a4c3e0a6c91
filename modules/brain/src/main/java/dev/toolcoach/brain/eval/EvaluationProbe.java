package dev.toolcoach.brain.eval;

import dev.toolcoach.cluster.learner.StepProbe;
import dev.toolcoach.model.lora.AdapterWeights;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link PeriodicEvaluation} as the learner runs it: one evaluation session, opened at the first probe (a model load
 * for the whole training run) and given each probed step's adapter. Runs on the learner's one training thread; close
 * it after the run.
 */
public final class EvaluationProbe implements StepProbe, AutoCloseable {
    private final PeriodicEvaluation plan;
    private final Supplier<EvalSession> open;
    private EvalSession session;

    /** @param open opens the session (the base model, the agent's tools), at the first probe */
    public EvaluationProbe(PeriodicEvaluation plan, Supplier<EvalSession> open) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.open = Objects.requireNonNull(open, "open");
    }

    @Override
    public boolean due(long jobStep) {
        return jobStep % plan.every() == 0;
    }

    @Override
    public void run(long jobStep, AdapterWeights adapter) {
        if (session == null) session = open.get();
        session.useAdapter(adapter);
        plan.sink().evaluated(jobStep, adapter.version(), session.evaluate(plan.examples(), plan.score()));
    }

    @Override
    public void close() {
        if (session != null) session.close();
    }
}
