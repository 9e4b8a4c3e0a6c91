package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;

/**
 * Hears what the learner does, on the learner's actor thread: keep each call short (write a line,
 * complete a future). The run that started the learner implements it to record metrics and traces.
 */
public interface LearnerListener {

    /** A training step finished and its groups are reported to the coach. */
    void stepDone(StepReport report);

    /** Every group of the job is closed (trained, skipped or dropped). */
    void finished(LearnerAccounts accounts);

    /** The job cannot go on (the reward is unavailable, a step failed); the learner stops. */
    void failed(Throwable cause);

    /** Hears nothing: a learner whose progress is read through {@code GetLearnerStatus} and metrics only. */
    LearnerListener NONE = new LearnerListener() {
        @Override
        public void stepDone(StepReport report) {
        }

        @Override
        public void finished(LearnerAccounts accounts) {
        }

        @Override
        public void failed(Throwable cause) {
        }
    };
}
