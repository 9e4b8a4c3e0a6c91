package dev.toolcoach.cluster.learner;

import dev.toolcoach.model.lora.AdapterWeights;

/**
 * Work the learner runs on its training thread after a step and before the next (a held-out evaluation every N steps,
 * as verl's {@code test_freq}): the next step waits for it, so what it measures is the adapter of exactly the step it
 * follows, while the athletes keep sampling.
 */
public interface StepProbe {

    /** Whether to run after job step {@code jobStep}. */
    boolean due(long jobStep);

    /** Runs on the training thread with the adapter after {@code jobStep}; a failure is logged and training goes on. */
    void run(long jobStep, AdapterWeights adapter);
}
