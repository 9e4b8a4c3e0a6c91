package dev.toolcoach.model.generate;

import java.util.concurrent.CompletableFuture;

/** A prompt to continue, how to sample, and the future its {@link Generation} completes. */
public record GenerationRequest(int[] prompt, SamplingParams params, CompletableFuture<Generation> result) {
}
