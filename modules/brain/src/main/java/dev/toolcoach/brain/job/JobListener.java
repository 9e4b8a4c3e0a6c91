package dev.toolcoach.brain.job;

import dev.toolcoach.brain.run.StepLine;

/** Hears a task training job's progress: its phases, its evaluations and every learner step. */
public interface JobListener {

    /** A phase begins: {@code model}, {@code evaluate}, {@code warm-up}, {@code train}, {@code save}. */
    void phase(String phase);

    /** An evaluation of the test split finished ({@code before_training}, {@code after_warmup}, {@code after_grpo}, ...). */
    void evaluated(String name, EvalRecord record);

    /** Training starts: {@code totalSteps} learner steps, {@code stepsDone} of them done before (a resumed job). */
    void trainingStarted(long totalSteps, long stepsDone);

    /** A learner step finished (on the learner's thread). */
    void step(StepLine line);

    /** Training ended. */
    void trainingEnded();
}
