/**
 * Decoding: {@code BatchDecoder} (continuous batching over the KV slots, request placement; see
 * {@code dev.toolcoach.model.engine}), {@code Sampler}, {@code DecodedSequence}, and llama2.c's {@code run}
 * ({@code Llama2cRun}). The behaviour log-prob of a sampled token is taken under the distribution actually sampled from
 * (after temperature, top-k, top-p); greedy decoding records 0. The learner's GRPO ratio is always against these, never
 * against a recomputed "old" policy, and stale tokens are capped by truncated importance sampling.
 */
package dev.toolcoach.model.generate;
