package dev.toolcoach.model.generate;

/**
 * One finished generation: the exact token ids, each token's behaviour log-prob, the adapter version that
 * produced it and the engine step it was produced in (all tokens of one step share a version).
 */
public record Generation(int[] tokens, float[] logProbs, long[] adapterVersions, long[] steps, String text, FinishReason finish) {
}
