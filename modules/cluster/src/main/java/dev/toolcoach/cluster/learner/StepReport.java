package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.core.TrainingMetrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One finished learner step, as the job's listener sees it.
 *
 * @param step      the job's step: batches of groups the learner has taken, this one included (a batch whose groups
 *                  all lacked signal counts too, though it changed no weight), over the job's whole life
 * @param version   the policy version after it
 * @param scored    the step's batch: groups the reward scored, with their rewards (trained on or skipped for lack of signal)
 * @param noSignal  groups sampled since the previous step and dropped before it for lack of signal (dynamic sampling),
 *                  with their rewards: with {@code scored}, every rollout sampled for the step that the reward scored
 * @param dropped   ids of the groups the reward could not score since the previous step
 * @param groupsSampled     groups (one query each) that closed for this step: its batch and every group dropped since the
 *                          previous step (for lack of signal under dynamic sampling, stale, unusable, unscored)
 * @param informativeGroups groups of the batch the step could learn from (GRPO: rewards not all equal)
 * @param metrics   the algorithm's figures
 * @param published the step changed the weights and published {@code version}
 * @param elapsed   wall time of the training step
 * @param accounts  the learner's accounts after it
 */
public record StepReport(long step, int version, List<ScoredGroup> scored, List<ScoredGroup> noSignal, List<String> dropped,
                         int groupsSampled, int informativeGroups, TrainingMetrics metrics, boolean published, Duration elapsed, LearnerAccounts accounts) {
    public StepReport {
        scored = List.copyOf(scored);
        noSignal = List.copyOf(noSignal);
        dropped = List.copyOf(dropped);
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(accounts, "accounts");
    }

    /** The share of the groups sampled for the step that it could learn from. */
    public double informativeFraction() {
        return informativeGroups / (double) Math.max(1, groupsSampled);
    }

    /** Mean reward over every scored trace, NaN when nothing was scored. */
    public double meanReward() {
        return meanReward(scored);
    }

    /** The step's batch and the groups dropped for lack of signal before it: every scored rollout sampled for it. */
    public List<ScoredGroup> sampled() {
        List<ScoredGroup> all = new ArrayList<>(scored);
        all.addAll(noSignal);
        return all;
    }

    /** Mean reward over the groups' traces, NaN when there are none. */
    public static double meanReward(List<ScoredGroup> scored) {
        return scored.stream().flatMap(g -> g.traces().stream()).mapToDouble(ScoredTrace::reward).average().orElse(Double.NaN);
    }
}
