package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.ScoredGroup;

import java.time.Duration;
import java.util.List;

/**
 * What {@link StepRunner} hands back to the learner from its training thread; the learner adds the job step and
 * accounts and reports it as a {@link StepReport}.
 *
 * @param scored   the step's batch of scored groups
 * @param sampling what it took to gather them
 * @param training the training step
 * @param elapsed  wall time of the training step
 */
record StepOutcome(List<ScoredGroup> scored, LearnerSteps.Sampling sampling, StepResult training, Duration elapsed) {
    StepOutcome {
        scored = List.copyOf(scored);
    }

    double meanReward() {
        return StepReport.meanReward(scored);
    }

    /** Groups of the batch the step could learn from. */
    int informative() {
        return training.groups() - training.skippedGroups();
    }

    StepReport report(long step, int version, LearnerAccounts accounts) {
        return new StepReport(step, version, scored, sampling.rewardDropped(), sampling.groups(), informative(),
                training.metrics(), training.published().isPresent(), elapsed, accounts);
    }
}
