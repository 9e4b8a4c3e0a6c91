package dev.toolcoach.cluster.learner;

/**
 * One finished learner step, as the job's listener sees it.
 *
 * @param step     the job's step: batches of groups the learner has taken, this one included (a batch whose groups
 *                 all lacked signal counts too, though it changed no weight), over the job's whole life
 * @param version  the policy version after it
 * @param outcome  the scored groups, dropped groups and training metrics
 * @param accounts the learner's accounts after it
 */
public record StepReport(long step, long version, StepOutcome outcome, LearnerAccounts accounts) {
}
