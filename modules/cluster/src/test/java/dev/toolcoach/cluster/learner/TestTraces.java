package dev.toolcoach.cluster.learner;

import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;

import java.util.Arrays;

/** Traces for the collector and scorer tests: a two-token prompt, then generated tokens at given policy versions. */
final class TestTraces {
    private TestTraces() {
    }

    /** Each generated token was sampled by the matching version (log-prob -1); {@code answer} becomes the final answer. */
    static Trace generated(String rolloutId, String groupId, String answer, int... versions) {
        int n = 2 + versions.length;
        int[] ids = new int[n];
        int[] mask = new int[n];
        float[] logprobs = new float[n];
        int[] policy = new int[n];
        Arrays.fill(policy, -1);
        for (int i = 0; i < versions.length; i++) {
            ids[2 + i] = 3 + i;
            mask[2 + i] = 1;
            logprobs[2 + i] = -1f;
            policy[2 + i] = versions[i];
        }
        return new Trace(rolloutId, groupId, "q-" + groupId, "query", null, new TokenRecord(2, ids, mask, logprobs, policy),
                answer, Termination.ANSWER, null, 0, 0, null);
    }

    /** A trace that ended before the model generated anything. */
    static Trace promptOnly(String rolloutId, String groupId) {
        return new Trace(rolloutId, groupId, "q-" + groupId, "query", null,
                new TokenRecord(2, new int[] {1, 2}, new int[2], new float[2], new int[] {-1, -1}),
                null, Termination.ERROR, "context full", 0, 0, null);
    }
}
