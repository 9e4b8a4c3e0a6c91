package dev.toolcoach.model.generate;

import dev.toolcoach.lm.SamplingParams;
import java.util.concurrent.CompletableFuture;

/** A prompt to continue, how to sample, and the future its {@link DecodedSequence} completes. */
public record DecodeRequest(int[] prompt, SamplingParams params, CompletableFuture<DecodedSequence> result) {
}
