package dev.toolcoach.cluster.learner;

/**
 * One finished learner step, as the job's listener sees it.
 *
 * @param step     the learner's step count after it (1 for the first step of a new job)
 * @param version  the policy version after it
 * @param outcome  the scored groups, dropped groups and training metrics
 * @param accounts the learner's accounts after it
 */
public record StepReport(long step, long version, StepOutcome outcome, LearnerAccounts accounts) {
}
