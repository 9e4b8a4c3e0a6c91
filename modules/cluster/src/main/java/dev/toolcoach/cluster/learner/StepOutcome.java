package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What {@link StepRunner} hands back to the learner from its training thread; the learner adds the job step and
 * accounts and reports it as a {@link StepReport}.
 *
 * @param scored   the groups the reward scored
 * @param dropped  ids of the groups the reward could not score
 * @param training the training step, empty when no group could be scored
 * @param elapsed  wall time of scoring and training
 */
record StepOutcome(List<ScoredGroup> scored, List<String> dropped, Optional<StepResult> training, Duration elapsed) {
    StepOutcome {
        scored = List.copyOf(scored);
        dropped = List.copyOf(dropped);
    }

    double meanReward() {
        return StepReport.meanReward(scored);
    }

    /** Groups the step closed. */
    int groups() {
        return scored.size() + dropped.size();
    }

    StepReport report(long step, int version, LearnerAccounts accounts) {
        return new StepReport(step, version, scored, dropped, training.map(StepResult::metrics),
                training.flatMap(StepResult::published).isPresent(), elapsed, accounts);
    }
}
