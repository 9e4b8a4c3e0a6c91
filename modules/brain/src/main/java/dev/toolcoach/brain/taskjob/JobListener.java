package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.run.HeldOutLine;
import dev.toolcoach.brain.run.Progress;
import dev.toolcoach.brain.run.StepLine;

/**
 * Hears a task training job's progress: its phases, its evaluations and every learner step. Only the phases must be
 * heard; the rest is ignored unless overridden.
 */
@FunctionalInterface
public interface JobListener {

    /** A phase begins: {@code model}, {@code evaluate}, {@code warm-up}, {@code train}, {@code save}. */
    void phase(String phase);

    /** An evaluation of the test split finished ({@code before_training}, {@code after_warmup}, {@code after_grpo}, ...). */
    default void evaluated(String name, EvalRecord record) {
    }

    /** Hears how far each long piece of a phase is (building the model, evaluations, the warm-up); by default nothing. */
    default Progress progress() {
        return Progress.NONE;
    }

    /** Training starts: {@code totalSteps} learner steps, {@code stepsDone} of them done before (a resumed job). */
    default void trainingStarted(long totalSteps, long stepsDone) {
    }

    /** A learner step finished (on the learner's thread). */
    default void step(StepLine line) {
    }

    /** A held-out evaluation while training finished (on the learner's thread; the next step waits for it). */
    default void heldOut(HeldOutLine line) {
    }

    /** Training ended. */
    default void trainingEnded() {
    }
}
