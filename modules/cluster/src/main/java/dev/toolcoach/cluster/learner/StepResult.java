package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.core.TrainingMetrics;
import dev.toolcoach.model.lora.AdapterWeights;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one training step did, as the training thread hands it back; the learner's step state adds the job step and
 * its counts and makes the listener's {@link StepReport} of it.
 *
 * @param version       the policy version after the step
 * @param skippedGroups groups of the batch it could not learn from (no reward variance; for SFT, no trace at the threshold)
 * @param metrics       the algorithm's figures
 * @param published     the new adapter when the step changed the weights (version + 1), empty when it had nothing to learn
 * @param elapsed       wall time of the step
 */
public record StepResult(int version, int skippedGroups, TrainingMetrics metrics, Optional<AdapterWeights> published,
                         Duration elapsed) {
    public StepResult {
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(published, "published");
        Objects.requireNonNull(elapsed, "elapsed");
    }
}
