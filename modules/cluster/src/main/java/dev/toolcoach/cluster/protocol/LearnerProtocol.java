package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.trace.Trace;

import java.util.Objects;

/**
 * The learner's protocol: traces from the athletes, the coach's give-ups and status queries, and what the
 * learner answers.
 */
public final class LearnerProtocol {

    private LearnerProtocol() {
    }

    /**
     * Everything the learner accepts. Sealed: the wire protocol is exactly the records listed; {@link Local} is for
     * messages the learner sends itself (finished steps, checkpoint replies), which never cross the wire.
     */
    public sealed interface Command permits TraceDelivery, GetLearnerStatus, DropGivenUpGroup, Local {
    }

    /** A message the learner actor sends itself; never serialised. */
    public non-sealed interface Local extends Command {
    }

    /**
     * A finished rollout's trace on its way from an athlete to the learner. Goes through Kryo because the
     * token arrays dominate its size; the learner answers with a {@link TraceAck} once it holds the trace,
     * which is when the rollout counts as done.
     */
    public record TraceDelivery(Trace trace, ActorRef<TraceAck> replyTo) implements Command, KryoSerializable {
        public TraceDelivery {
            Objects.requireNonNull(trace, "trace");
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /** Ask the learner where the job stands; it answers {@link LearnerStatus}. */
    public record GetLearnerStatus(ActorRef<LearnerStatus> replyTo) implements Command, CborSerializable {
        public GetLearnerStatus {
            Objects.requireNonNull(replyTo, "replyTo");
        }
    }

    /**
     * From the coach: a rollout of the group was taken back more often than the coach re-dispatches one, so the group
     * is given up. Unless the learner already holds the whole group, it drops it and answers {@link GroupDropped} with
     * {@link GroupDropped.Reason#REDISPATCH_LIMIT}; a trace of it that arrives later is a duplicate.
     */
    public record DropGivenUpGroup(String groupId) implements Command, CborSerializable {
        public DropGivenUpGroup {
            Objects.requireNonNull(groupId, "groupId");
        }
    }

    /** The learner holds the trace of this rollout. */
    public record TraceAck(String rolloutId) implements CborSerializable {
        public TraceAck {
            Objects.requireNonNull(rolloutId, "rolloutId");
        }
    }

    /**
     * The learner's side of a job's progress.
     *
     * @param steps             training steps done in this learner's lifetime (a resumed job counts from its checkpoint)
     * @param policyVersion     the adapter version the learner holds
     * @param accounts          its counts of traces and groups
     * @param groupsWaiting     complete groups waiting for scoring or a step
     * @param lastMeanReward    mean reward of the last step's traces, NaN before the first step
     * @param lastGroupsSampled groups (queries) that closed for the last step: its batch and the groups dropped before it
     * @param lastInformativeFraction of those, the share the step could learn from, NaN before the first step
     * @param training          a step is running now
     * @param finished          every group of the job is closed
     */
    public record LearnerStatus(long steps, int policyVersion, LearnerAccounts accounts, long groupsWaiting, double lastMeanReward,
                                long lastGroupsSampled, double lastInformativeFraction, boolean training, boolean finished)
            implements CborSerializable {
        public LearnerStatus {
            Objects.requireNonNull(accounts, "accounts");
        }
    }

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
}
