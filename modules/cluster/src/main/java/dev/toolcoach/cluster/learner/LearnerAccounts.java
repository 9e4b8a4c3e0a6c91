package dev.toolcoach.cluster.learner;

/**
 * The learner's exact accounts at one moment. The learner's parts share one
 * {@code AtomicReference<LearnerAccounts>} and count by replacing it with the next value, so a snapshot is
 * always whole: the learner counts arriving traces on its actor thread while a step scores and trains on another. Every complete group ends in exactly one of the
 * dispositions (dropped stale, dropped unusable, dropped by its reward, skipped for lack of signal,
 * trained) or is still {@link #pending()}.
 *
 * @param received              traces offered to the collector
 * @param duplicates            traces discarded because their rollout id was already seen or their group was closed
 * @param groupsComplete        groups whose G traces all arrived
 * @param droppedStale          complete groups older than {@code max-policy-lag}, never trained
 * @param droppedUnusable       complete groups holding a trace the learner cannot train on (e.g. no generated token)
 * @param droppedRewardFailure  groups the reward could not score
 * @param skippedNoSignal       groups nothing could be learned from (GRPO: all rewards equal): dropped as soon as they
 *                              were scored when the job samples dynamically, else skipped by the training step
 * @param trained               groups a training step learned from
 * @param lastDropReason        why the latest group was dropped, or "" when none was
 */
public record LearnerAccounts(long received, long duplicates, long groupsComplete, long droppedStale,
                              long droppedUnusable, long droppedRewardFailure, long skippedNoSignal, long trained,
                              String lastDropReason) {

    /** Nothing received yet. */
    public static final LearnerAccounts NONE = new LearnerAccounts(0, 0, 0, 0, 0, 0, 0, 0, "");

    /** Complete groups not yet dropped, skipped or trained: waiting for scoring or a training step. */
    public long pending() {
        return groupsComplete - droppedStale - droppedUnusable - droppedRewardFailure - skippedNoSignal - trained;
    }

    LearnerAccounts plusReceived() {
        return new LearnerAccounts(received + 1, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, lastDropReason);
    }

    LearnerAccounts plusDuplicate() {
        return new LearnerAccounts(received, duplicates + 1, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, lastDropReason);
    }

    LearnerAccounts plusComplete() {
        return new LearnerAccounts(received, duplicates, groupsComplete + 1, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, lastDropReason);
    }

    LearnerAccounts plusStale(String reason) {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale + 1, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, reason);
    }

    LearnerAccounts plusUnusable(String reason) {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable + 1,
                droppedRewardFailure, skippedNoSignal, trained, reason);
    }

    LearnerAccounts plusRewardFailure(String reason) {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure + 1, skippedNoSignal, trained, reason);
    }

    LearnerAccounts plusNoSignal() {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal + 1, trained, lastDropReason);
    }

    LearnerAccounts plusStep(int groupsTrained, int groupsSkipped) {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal + groupsSkipped, trained + groupsTrained, lastDropReason);
    }
}
