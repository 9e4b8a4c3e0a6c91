/**
 * Tool retrieval: picking the few tools relevant to a query from a large catalog before an agent's
 * rollouts. {@link dev.toolcoach.retrieval.ToolRetriever} is the contract; the lexical retriever
 * (Lucene BM25, {@code lexical}), the LLM filter ({@code llm}) and the
 * {@link dev.toolcoach.retrieval.HybridRetriever} implement it. {@code catalog} pools the function
 * schemas of the shared datasets into one catalog, and {@code eval} measures recall@k on BFCL.
 */
package dev.toolcoach.retrieval;
