package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Arrays;

/**
 * The exact token-level record of one rollout, what the learner trains on.
 *
 * <p>All arrays have the same length. {@code lossMask[i]} is 1 only on tokens the model generated;
 * prompt and tool-observation tokens carry 0, a behaviour log-prob of 0 and a policy version of -1.
 *
 * @param promptLength     number of leading tokens that form the initial prompt
 * @param tokenIds         every token id of the rollout, prompt first
 * @param lossMask         1 on model-generated tokens, else 0
 * @param behaviorLogprobs log-prob of each generated token under the sampling distribution used
 * @param policyVersions   adapter version that generated each token, -1 where not generated
 */
public record TokenRecord(@JsonProperty("prompt_length") int promptLength,
                          @JsonProperty("token_ids") int[] tokenIds,
                          @JsonProperty("loss_mask") int[] lossMask,
                          @JsonProperty("behavior_logprobs") float[] behaviorLogprobs,
                          @JsonProperty("policy_versions") int[] policyVersions) {

    public TokenRecord {
        int n = tokenIds.length;
        if (lossMask.length != n || behaviorLogprobs.length != n || policyVersions.length != n) {
            throw new IllegalArgumentException("token record arrays differ in length: ids=" + n
                    + " mask=" + lossMask.length + " logprobs=" + behaviorLogprobs.length
                    + " versions=" + policyVersions.length);
        }
        for (int i = 0; i < n; i++) {
            if (lossMask[i] != 0 && lossMask[i] != 1) {
                throw new IllegalArgumentException("loss mask value " + lossMask[i] + " at " + i + " is not 0 or 1");
            }
        }
        if (promptLength < 0 || promptLength > n) {
            throw new IllegalArgumentException("prompt length " + promptLength + " outside 0.." + n);
        }
    }

    public static TokenRecord empty() {
        return new TokenRecord(0, new int[0], new int[0], new float[0], new int[0]);
    }

    @JsonIgnore
    public int length() {
        return tokenIds.length;
    }

    @JsonIgnore
    public int generatedCount() {
        int c = 0;
        for (int m : lossMask) c += m;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TokenRecord t && promptLength == t.promptLength
                && Arrays.equals(tokenIds, t.tokenIds) && Arrays.equals(lossMask, t.lossMask)
                && Arrays.equals(behaviorLogprobs, t.behaviorLogprobs)
                && Arrays.equals(policyVersions, t.policyVersions);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * promptLength + Arrays.hashCode(tokenIds)) + Arrays.hashCode(behaviorLogprobs);
    }

    @Override
    public String toString() {
        return "TokenRecord[promptLength=" + promptLength + ", length=" + tokenIds.length
                + ", generated=" + generatedCount() + "]";
    }
}
