package dev.toolcoach.brain.zerolearn;

/** Why a generated query (or a whole reply) was not kept; each is counted. */
public enum Rejection {
    /** The reply held no JSON object with a {@code queries} list. */
    MALFORMED_REPLY,
    /** An entry of the list was not an object with a non-blank {@code query}. */
    MALFORMED_ENTRY,
    /** More words than {@code maxWords}. */
    TOO_MANY_WORDS,
    /** Fewer intended tool calls than {@code minToolCalls}. */
    TOO_FEW_TOOL_CALLS,
    /** An intended call names a tool that is not offered. */
    UNKNOWN_TOOL,
    /** An intended call lacks a required argument or gives one the tool does not declare. */
    INVALID_ARGUMENTS,
    /** The same query (after normalisation) was already kept. */
    DUPLICATE,
    /** Valid, but more than {@code numExamples} were already kept. */
    SURPLUS
}
