package dev.toolcoach.trace;

/** Why an agent run stopped. */
public enum Termination {
    /** The model gave a final answer. */
    ANSWER,
    /** The turn limit was reached without an answer. */
    MAX_TURNS,
    /** The token budget was exhausted without an answer. */
    MAX_TOKENS,
    /** An unrecoverable error ended the run (the trace says which). */
    ERROR
}
