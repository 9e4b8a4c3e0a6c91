/**
 * A complete model side without a neural network: a byte-level tokenizer, the ChatML chat format
 * and a generator that replays a fixed script of replies. It drives the agent loop exactly as a
 * real engine does (real token ids, log-probs, stop tokens), so tool suites, tasks and rewards can be
 * exercised end to end in tests and dry runs.
 */
package dev.toolcoach.agent.scripted;
