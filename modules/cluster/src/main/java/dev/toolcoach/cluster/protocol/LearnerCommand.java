package dev.toolcoach.cluster.protocol;

/**
 * Everything the learner accepts. Sealed: the wire protocol is exactly the records listed;
 * {@link Local} is for messages the learner sends itself (finished steps, checkpoint replies), which
 * never cross the wire.
 */
public sealed interface LearnerCommand permits TraceDelivery, GetLearnerStatus, DropGivenUpGroup, LearnerCommand.Local {

    /** A message the learner actor sends itself; never serialised. */
    non-sealed interface Local extends LearnerCommand {
    }
}
