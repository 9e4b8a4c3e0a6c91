package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Arrays;

/**
 * The exact token-level record of one rollout, what the learner trains on.
 *
 * <p>All arrays have the same length. {@code lossMask[i]} is 1 only on tokens the model generated;
 * prompt and tool-observation tokens carry 0, a behaviour log-prob of 0 and a policy version of -1.
 *
 * <p>The record is one context, unless a chat template rewrote earlier turns (Qwen3-style templates drop old
 * {@code <think>} content): then the agent started over with the re-rendered conversation, and each later
 * context begins at one of {@code contextStarts}. A token was seen only with the tokens of its own context
 * before it, so that is how the learner scores it. Old traces have no {@code context_starts}: one context.
 *
 * @param promptLength     number of leading tokens that form the initial prompt
 * @param tokenIds         every token id of the rollout, prompt first
 * @param lossMask         1 on model-generated tokens, else 0
 * @param behaviorLogprobs log-prob of each generated token under the sampling distribution used
 * @param policyVersions   adapter version that generated each token, -1 where not generated
 * @param contextStarts    index of the first token of each context after the first, increasing; empty when the
 *                         whole record is one context. A context's first token is never generated.
 */
public record TokenRecord(@JsonProperty("prompt_length") int promptLength,
                          @JsonProperty("token_ids") int[] tokenIds,
                          @JsonProperty("loss_mask") int[] lossMask,
                          @JsonProperty("behavior_logprobs") float[] behaviorLogprobs,
                          @JsonProperty("policy_versions") int[] policyVersions,
                          @JsonProperty("context_starts") @JsonInclude(JsonInclude.Include.NON_EMPTY) int[] contextStarts) {

    /** A record of one context. */
    public TokenRecord(int promptLength, int[] tokenIds, int[] lossMask, float[] behaviorLogprobs, int[] policyVersions) {
        this(promptLength, tokenIds, lossMask, behaviorLogprobs, policyVersions, new int[0]);
    }

    public TokenRecord {
        contextStarts = contextStarts == null ? new int[0] : contextStarts;
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
        int previous = Math.max(promptLength, 1) - 1;
        for (int start : contextStarts) {
            if (start <= previous || start >= n) {
                throw new IllegalArgumentException("context start " + start + " is not after " + previous + " and before "
                        + n + " (context_starts must increase inside the record, after the first prompt)");
            }
            if (lossMask[start] != 0) {
                throw new IllegalArgumentException("context start " + start + " is marked generated; a context begins"
                        + " with its prompt");
            }
            previous = start;
        }
    }

    public static TokenRecord empty() {
        return new TokenRecord(0, new int[0], new int[0], new float[0], new int[0]);
    }

    @JsonIgnore
    public int length() {
        return tokenIds.length;
    }

    /** Number of contexts the record holds (1 unless a template rewrote earlier turns). */
    @JsonIgnore
    public int contextCount() {
        return contextStarts.length + 1;
    }

    /** The context number of every token, counting from 1 (the layout the learner's attention mask takes). */
    @JsonIgnore
    public int[] contextNumbers() {
        int[] out = new int[tokenIds.length];
        int context = 1;
        int next = 0;
        for (int i = 0; i < out.length; i++) {
            if (next < contextStarts.length && contextStarts[next] == i) {
                context++;
                next++;
            }
            out[i] = context;
        }
        return out;
    }

    /** Whether a context after the first begins at {@code index}. */
    public boolean startsContext(int index) {
        return Arrays.binarySearch(contextStarts, index) >= 0;
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
                && Arrays.equals(policyVersions, t.policyVersions) && Arrays.equals(contextStarts, t.contextStarts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * promptLength + Arrays.hashCode(tokenIds)) + Arrays.hashCode(behaviorLogprobs);
    }

    @Override
    public String toString() {
        return "TokenRecord[promptLength=" + promptLength + ", length=" + tokenIds.length
                + ", generated=" + generatedCount() + ", contexts=" + contextCount() + "]";
    }
}
