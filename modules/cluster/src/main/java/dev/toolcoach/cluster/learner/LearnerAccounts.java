package dev.toolcoach.cluster.learner;

/**
 * The learner's exact accounts at one moment. Every complete group ends in exactly one of the
 * dispositions (dropped stale, dropped unusable, dropped by its reward, skipped for lack of signal,
 * trained) or is still {@link #pending()}.
 *
 * @param received              traces offered to the collector
 * @param duplicates            traces discarded because their rollout id was already seen or their group was closed
 * @param groupsComplete        groups whose G traces all arrived
 * @param droppedStale          complete groups older than {@code max-policy-lag}, never trained
 * @param droppedUnusable       complete groups holding a trace the learner cannot train on (e.g. no generated token)
 * @param droppedRewardFailure  groups the reward could not score
 * @param skippedNoSignal       groups a training step received but could not learn from (GRPO: all rewards equal)
 * @param trained               groups a training step learned from
 * @param lastDropReason        why the latest group was dropped, or "" when none was
 */
public record LearnerAccounts(long received, long duplicates, long groupsComplete, long droppedStale,
                              long droppedUnusable, long droppedRewardFailure, long skippedNoSignal, long trained,
                              String lastDropReason) {

    /** Complete groups not yet dropped, skipped or trained: waiting for scoring or a training step. */
    public long pending() {
        return groupsComplete - droppedStale - droppedUnusable - droppedRewardFailure - skippedNoSignal - trained;
    }
}
