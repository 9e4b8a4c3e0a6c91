/**
 * The vocabulary the agent and the model engine share, below both so that the agent never depends on
 * the engine (or DJL): how to sample, a generation request and its result, why a generation ended, the
 * tokenizer contract and the ChatML markers. Per-token policy (adapter) versions are {@code int}, as in
 * the trace.
 */
package dev.toolcoach.lm;
