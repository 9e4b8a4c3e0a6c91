package dev.toolcoach.retrieval.llm;

/**
 * What the LLM filter has seen so far.
 *
 * @param requests        selections asked for
 * @param jsonReplies     replies read as a JSON list
 * @param freeTextReplies replies read from free text
 * @param unusableReplies replies that named no candidate
 * @param failedCalls     requests that got no reply (transport or HTTP error)
 * @param unknownNames    names given that were not candidates, over all replies
 */
public record FilterStats(long requests, long jsonReplies, long freeTextReplies, long unusableReplies,
                          long failedCalls, long unknownNames) {
}
