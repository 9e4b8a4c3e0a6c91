package dev.toolcoach.brain.distill;

/** Why a teacher trace is not learnt from. */
public enum SkipReason {
    /**
     * The run ended without a final answer: a reply cut at the token limit, or the turn limit reached with no reward
     * (a run whose last allowed turn the reward credits, a function-calling example's call, is kept).
     */
    NO_ANSWER,
    /** The run ended in an error, e.g. the teacher timed out or sent a reply without choices. */
    TEACHER_ERROR,
    /** It answered, but its reward was not above the threshold. */
    BELOW_THRESHOLD
}
