package dev.toolcoach.model.generate;

import dev.toolcoach.lm.FinishReason;

/**
 * One sequence as the engine decoded it: the exact token ids (a stop token included), each token's behaviour
 * log-prob, the adapter version that produced it and the engine step (forward pass) it was produced in (all
 * tokens of one step share a version), and the decoded text (cut after a stop string). The policy turns it
 * into the agent's {@link dev.toolcoach.lm.Generation}.
 */
public record DecodedSequence(int[] tokens, float[] logProbs, int[] policyVersions, long[] steps, String text,
                              FinishReason finish) {
}
