package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;

import java.util.List;
import java.util.Objects;

/**
 * The coach's protocol: what the coach accepts ({@link Command}) and what it answers. Work pulling and the
 * learner's reports, each a record, all bound to CBOR through {@link CborSerializable}.
 */
public final class CoachProtocol {

    private CoachProtocol() {
    }

    /**
     * Everything the coach accepts. Sealed: the wire protocol is exactly the records listed; {@link Local} is the
     * one opening, for messages the coach sends itself (timer ticks), which never cross the wire.
     */
    public sealed interface Command permits RequestRollouts, RolloutReceived, GroupTrained, GroupDropped, GetProgress,
            GetCursor, LearnerStarted, Local {
    }

    /** A message the coach actor sends itself; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * Work pulling: an athlete is free for {@code count} more rollouts. The coach never has more of an
     * athlete's rollouts in flight than it asked for; each {@link AthleteProtocol.AssignRollout} uses up one.
     */
    public record RequestRollouts(ActorRef<AthleteProtocol.Command> athlete, int count) implements Command, CborSerializable {
        public RequestRollouts {
            Objects.requireNonNull(athlete, "athlete");
            if (count < 1) throw new IllegalArgumentException("an athlete must ask for at least 1 rollout, asked for " + count);
        }
    }

    /** From the learner: it holds this rollout's trace, so the coach counts the rollout done. */
    public record RolloutReceived(String rolloutId) implements Command, CborSerializable {
        public RolloutReceived {
            Objects.requireNonNull(rolloutId, "rolloutId");
        }
    }

    /** From the learner: the group went into the update that produced adapter {@code version}; the group closes. */
    public record GroupTrained(String groupId, int version) implements Command, CborSerializable {
        public GroupTrained {
            Objects.requireNonNull(groupId, "groupId");
        }
    }

    /** From the learner: the group will never be trained on; it closes and is counted under its reason. */
    public record GroupDropped(String groupId, Reason reason) implements Command, CborSerializable {

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

    /** Ask the coach for its accounts; it answers {@link CoachProgress}. */
    public record GetProgress(ActorRef<CoachProgress> replyTo) implements Command, CborSerializable {
        public GetProgress {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /** Ask the coach for its cursor, to store with a checkpoint; it answers {@link CoachCursor}. */
    public record GetCursor(ActorRef<CoachCursor> replyTo) implements Command, CborSerializable {
        public GetCursor {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /** From the learner when it starts: where the coach sends {@link LearnerProtocol.DropGivenUpGroup}. */
    public record LearnerStarted(ActorRef<LearnerProtocol.Command> learner) implements Command, CborSerializable {
        public LearnerStarted {
            Objects.requireNonNull(learner, "learner");
        }
    }

    /**
     * The coach's accounts. Group counts span the job (they survive a restore from a {@link CoachCursor});
     * rollout counts are this coach incarnation's.
     *
     * @param groupsDispatched     groups opened (a group opens when its first rollout goes out)
     * @param groupsCompleted      groups whose every rollout reached the learner
     * @param groupsTrained        groups the learner trained on
     * @param groupsDropped        groups the learner dropped, by reason
     * @param groupsOpen           groups neither trained nor dropped
     * @param rolloutsDispatched   rollouts sent for the first time
     * @param rolloutsRedispatched rollouts sent again after a missed deadline or a lost athlete
     * @param rolloutsCompleted    rollouts the learner holds (each counted once)
     * @param rolloutsCancelled    rollouts not done when their group closed (out or queued; a late trace is a duplicate)
     * @param rolloutsInFlight     rollouts out with an athlete now
     * @param rolloutsQueued       rollouts waiting to go out again
     * @param deadlinesMissed      in-flight rollouts taken back because their deadline passed
     * @param athleteLosses        in-flight rollouts taken back because their athlete left
     * @param duplicatesDiscarded  reports of a rollout already done, or of a closed group's rollout
     * @param reportsIgnored       group reports (trained/dropped) for a group not open, or unknown rollout ids
     * @param policyVersion        newest adapter version trained
     * @param finished             every group the job allows was opened and closed
     */
    public record CoachProgress(long groupsDispatched, long groupsCompleted, long groupsTrained, GroupCounts groupsDropped,
                           long groupsOpen, long rolloutsDispatched, long rolloutsRedispatched, long rolloutsCompleted, long rolloutsCancelled,
                           long rolloutsInFlight, long rolloutsQueued, long deadlinesMissed, long athleteLosses,
                           long duplicatesDiscarded, long reportsIgnored, int policyVersion, boolean finished)
            implements CborSerializable {

        public CoachProgress {
            Objects.requireNonNull(groupsDropped, "groupsDropped");
        }
    }

    /**
     * Where the coach is in the job, as a checkpoint stores it. Restoring re-opens the groups that were
     * open (from scratch: the learner restored from the same checkpoint holds none of their traces) and
     * continues the dataset from {@code nextExample}.
     *
     * @param nextExample    index of the next training example to open a group for
     * @param epoch          completed passes over the dataset
     * @param nextGroup      sequence number of the next group id
     * @param openGroups     groups neither trained nor dropped yet
     * @param policyVersion  newest adapter version trained
     * @param groupsTrained  groups trained so far in the job
     * @param groupsCompleted closed groups whose every rollout had reached the learner
     * @param groupsDropped  dropped groups by reason
     */
    public record CoachCursor(int nextExample, long epoch, long nextGroup, List<OpenGroup> openGroups, int policyVersion,
                              long groupsTrained, long groupsCompleted, GroupCounts groupsDropped)
            implements CborSerializable {

        /** An open group: its id and the example it was opened for (the query id guards against a changed dataset). */
        public record OpenGroup(String groupId, int exampleIndex, String queryId) {
            public OpenGroup {
                Objects.requireNonNull(groupId, "groupId");
                Objects.requireNonNull(queryId, "queryId");
            }
        }

        public CoachCursor {
            openGroups = List.copyOf(openGroups);
            Objects.requireNonNull(groupsDropped, "groupsDropped");
        }
    }
}
