package dev.toolcoach.retrieval;

/**
 * What the hybrid retriever has done so far.
 *
 * @param queries                  queries answered
 * @param modelSelections          answered with the model's choice
 * @param unusableReplyFallbacks   answered in shortlist order because the model's reply was unusable
 * @param failedCallFallbacks      answered in shortlist order because the model could not be reached
 */
public record HybridStats(long queries, long modelSelections, long unusableReplyFallbacks, long failedCallFallbacks) {
}
