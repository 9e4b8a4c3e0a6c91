package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.PolicySnapshot;
import dev.toolcoach.learn.core.TrainingMetrics;

import java.util.Optional;

/**
 * What one training step did.
 *
 * @param algorithm     the algorithm that ran
 * @param version       the policy version after the step
 * @param groups        groups handed to the step
 * @param skippedGroups of those, groups it could not learn from (no reward variance; for SFT, no trace at the threshold)
 * @param metrics       the algorithm's figures
 * @param published     the new adapter when the step changed the weights (version + 1), empty when it had nothing to learn
 */
public record StepResult(Algorithm algorithm, int version, int groups, int skippedGroups, TrainingMetrics metrics,
                         Optional<PolicySnapshot> published) {
}
