package dev.toolcoach.lm;

import java.util.Arrays;
import java.util.Objects;

/**
 * What the model generated for one request, exactly as sampled: what the agent records in its trace.
 *
 * @param tokenIds         generated ids, including the stop token when the reply ended with one
 * @param logprobs         behaviour log-prob of each generated id under the sampling distribution
 * @param policyVersions   adapter version that produced each id (it may change mid-reply)
 * @param text             the reply's text without the stop token: what the action parser reads
 * @param finishReason     why generation stopped
 */
public record Generation(int[] tokenIds, float[] logprobs, int[] policyVersions, String text,
                         FinishReason finishReason) {

    public Generation {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(finishReason, "finishReason");
        if (logprobs.length != tokenIds.length || policyVersions.length != tokenIds.length) {
            throw new IllegalArgumentException("generation arrays differ in length: ids=" + tokenIds.length
                    + " logprobs=" + logprobs.length + " versions=" + policyVersions.length);
        }
        tokenIds = tokenIds.clone();
        logprobs = logprobs.clone();
        policyVersions = policyVersions.clone();
    }

    @Override
    public int[] tokenIds() {
        return tokenIds.clone();
    }

    @Override
    public float[] logprobs() {
        return logprobs.clone();
    }

    @Override
    public int[] policyVersions() {
        return policyVersions.clone();
    }

    public int length() {
        return tokenIds.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Generation g && Arrays.equals(tokenIds, g.tokenIds) && Arrays.equals(logprobs, g.logprobs)
                && Arrays.equals(policyVersions, g.policyVersions) && text.equals(g.text)
                && finishReason == g.finishReason;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(tokenIds), text, finishReason);
    }

    @Override
    public String toString() {
        return "Generation[" + tokenIds.length + " tokens, " + finishReason + ", text=" + text + "]";
    }
}
