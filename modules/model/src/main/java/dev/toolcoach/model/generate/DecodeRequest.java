package dev.toolcoach.model.generate;

import dev.toolcoach.lm.SamplingParams;
import java.util.concurrent.CompletableFuture;

/**
 * A context to continue, how to sample, and the future its {@link DecodedSequence} completes.
 *
 * @param conversation null, or the conversation this context extends: the engine keeps the conversation's KV cache
 *                     between its requests, so only the tokens after what it already holds are prefilled
 */
public record DecodeRequest(String conversation, int[] prompt, SamplingParams params,
                            CompletableFuture<DecodedSequence> result) {
}
