package dev.toolcoach.cluster.protocol;

import java.util.Objects;

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
public record Progress(long groupsDispatched, long groupsCompleted, long groupsTrained, GroupCounts groupsDropped,
                       long groupsOpen, long rolloutsDispatched, long rolloutsRedispatched, long rolloutsCompleted, long rolloutsCancelled,
                       long rolloutsInFlight, long rolloutsQueued, long deadlinesMissed, long athleteLosses,
                       long duplicatesDiscarded, long reportsIgnored, int policyVersion, boolean finished)
        implements CborSerializable {

    public Progress {
        Objects.requireNonNull(groupsDropped, "groupsDropped");
    }
}
