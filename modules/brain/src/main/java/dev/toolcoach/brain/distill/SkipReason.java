package dev.toolcoach.brain.distill;

/** Why a teacher trace is not learnt from. */
public enum SkipReason {
    /** The run ended without a final answer (turn or token limit). */
    NO_ANSWER,
    /** The run ended in an error, e.g. the teacher timed out or sent a reply without choices. */
    TEACHER_ERROR,
    /** It answered, but its reward was not above the threshold. */
    BELOW_THRESHOLD
}
