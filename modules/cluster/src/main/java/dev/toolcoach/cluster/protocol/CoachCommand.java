package dev.toolcoach.cluster.protocol;

/**
 * Everything the coach accepts. Sealed: the wire protocol is exactly the records listed;
 * {@link Local} is the one opening, for messages the coach sends itself (timer ticks), which never
 * cross the wire.
 */
public sealed interface CoachCommand
        permits RequestRollouts, RolloutReceived, GroupTrained, GroupDropped, GetProgress, GetCursor, LearnerStarted,
                CoachCommand.Local {

    /** A message the coach actor sends itself; never serialised. */
    non-sealed interface Local extends CoachCommand {
    }
}
