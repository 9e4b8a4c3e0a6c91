package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/**
 * The learner's exact counts at one moment, over this learner's life (a resumed job counts from its checkpoint). Only
 * the learner's step state changes them, on the learner actor's thread, each change a new value. Every complete group
 * ends in exactly one disposition (dropped, skipped by a step, trained) or is still {@link #pending()}; a group the
 * coach gave up ({@code REDISPATCH_LIMIT}) is dropped without ever completing.
 *
 * @param received       traces offered to the learner
 * @param duplicates     traces discarded because their rollout id was already held or their group was closed
 * @param groupsComplete groups whose G traces all arrived
 * @param dropped        groups closed untrained, by reason: too old for the policy, holding a trace nothing can be
 *                       learned from, unscorable, given up by the coach, or (sampling dynamically) without signal
 * @param skipped        groups a step took but could not learn from (GRPO: all rewards equal), without dynamic sampling
 * @param trained        groups a training step learned from
 */
public record LearnerAccounts(long received, long duplicates, long groupsComplete, GroupCounts dropped, long skipped,
                              long trained) implements CborSerializable {

    /** Nothing received yet. */
    public static final LearnerAccounts NONE = new LearnerAccounts(0, 0, 0, GroupCounts.NONE, 0, 0);

    public LearnerAccounts {
        Objects.requireNonNull(dropped, "dropped");
    }

    /** Complete groups not yet dropped, skipped or trained: waiting for scoring or a training step. */
    public long pending() {
        long droppedComplete = dropped.total() - dropped.get(GroupDropped.Reason.REDISPATCH_LIMIT);
        return groupsComplete - droppedComplete - skipped - trained;
    }

    /** Groups nothing could be learned from: dropped for it when sampling dynamically, else skipped by a step. */
    public long withoutSignal() {
        return dropped.get(GroupDropped.Reason.NO_SIGNAL) + skipped;
    }

    public LearnerAccounts plusReceived() {
        return new LearnerAccounts(received + 1, duplicates, groupsComplete, dropped, skipped, trained);
    }

    public LearnerAccounts plusDuplicate() {
        return new LearnerAccounts(received, duplicates + 1, groupsComplete, dropped, skipped, trained);
    }

    public LearnerAccounts plusComplete() {
        return new LearnerAccounts(received, duplicates, groupsComplete + 1, dropped, skipped, trained);
    }

    public LearnerAccounts plusDropped(GroupDropped.Reason reason) {
        return new LearnerAccounts(received, duplicates, groupsComplete, dropped.plus(reason), skipped, trained);
    }

    public LearnerAccounts plusStep(int groupsTrained, int groupsSkipped) {
        return new LearnerAccounts(received, duplicates, groupsComplete, dropped, skipped + groupsSkipped, trained + groupsTrained);
    }
}
