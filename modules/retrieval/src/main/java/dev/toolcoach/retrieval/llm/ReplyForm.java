package dev.toolcoach.retrieval.llm;

/** How a tool-selection reply named its tools. */
public enum ReplyForm {
    /** A JSON list of names (bare, or as a field of a JSON object). */
    JSON_LIST,
    /** No JSON list: candidate names picked out of free text. */
    FREE_TEXT,
    /** Neither: nothing usable in the reply. */
    NONE
}
