package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What became of the groups handed to one step.
 *
 * @param scored  the groups the reward scored, with their rewards (trained on or skipped for lack of signal)
 * @param dropped ids of the groups the reward could not score
 * @param result  the training step, empty when no group could be scored
 * @param elapsed wall time of scoring and training
 */
public record StepOutcome(List<ScoredGroup> scored, List<String> dropped, Optional<StepResult> result, Duration elapsed) {
    public StepOutcome {
        scored = List.copyOf(scored);
        dropped = List.copyOf(dropped);
    }

    /** Mean reward over every scored trace, NaN when nothing was scored. */
    public double meanReward() {
        return scored.stream().flatMap(g -> g.traces().stream()).mapToDouble(ScoredTrace::reward).average().orElse(Double.NaN);
    }
}
