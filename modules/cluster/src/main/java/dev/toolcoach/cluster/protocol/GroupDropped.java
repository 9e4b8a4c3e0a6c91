package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/** From the learner: the group will never be trained on; it closes and is counted under its reason. */
public record GroupDropped(String groupId, Reason reason) implements CoachCommand, CborSerializable {

    public enum Reason {
        /** its rollouts came from a policy more than {@code max-policy-lag} versions old */
        STALE_POLICY,
        /** a trace of the group cannot be trained on (e.g. it generated no token) */
        UNUSABLE,
        /** the reward function failed on the group */
        REWARD_FAILED,
        /** a rollout of the group was taken back more often than the coach re-dispatches one (a poison query) */
        REDISPATCH_LIMIT,
        /** every rollout of the group scored alike, so it holds nothing to learn (dynamic sampling drops it for a fresh query) */
        NO_SIGNAL
    }

    public GroupDropped {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(reason, "reason");
    }
}
