/**
 * The vocabulary the agent and the model engine share, below both so that the agent never depends on
 * the engine (or DJL): how to sample, a generation request and its result, why a generation ended, the
 * tokenizer contract and the ChatML markers. Policy (adapter) versions are {@code int} throughout: per token
 * here and in the trace, and as the adapter's own version in model, learn and the cluster protocol.
 */
package dev.toolcoach.lm;
