package dev.toolcoach.agent;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.trace.TokenRecord;

import java.util.Arrays;

/**
 * The growing token record of one run. The context only ever grows by appending: the prompt once,
 * then each reply's generated ids (loss mask 1, with their log-probs and versions) and each
 * observation's ids (loss mask 0).
 */
final class TokenLedger {

    private static final int NOT_GENERATED = -1;

    private int[] ids = new int[256];
    private int[] mask = new int[256];
    private float[] logprobs = new float[256];
    private int[] versions = new int[256];
    private int length;
    private int promptLength = -1;

    void appendPrompt(int[] promptIds) {
        if (promptLength >= 0) throw new IllegalStateException("the prompt is already in the ledger");
        appendObserved(promptIds);
        promptLength = length;
    }

    void appendGenerated(Generation generation) {
        int[] g = generation.tokenIds();
        float[] lp = generation.logprobs();
        int[] v = generation.policyVersions();
        ensure(g.length);
        for (int i = 0; i < g.length; i++) {
            put(g[i], 1, lp[i], v[i]);
        }
    }

    void appendObserved(int[] observed) {
        ensure(observed.length);
        for (int id : observed) {
            put(id, 0, 0f, NOT_GENERATED);
        }
    }

    int length() {
        return length;
    }

    int[] ids() {
        return Arrays.copyOf(ids, length);
    }

    TokenRecord toRecord() {
        return new TokenRecord(Math.max(promptLength, 0), Arrays.copyOf(ids, length), Arrays.copyOf(mask, length),
                Arrays.copyOf(logprobs, length), Arrays.copyOf(versions, length));
    }

    private void put(int id, int m, float lp, int v) {
        ids[length] = id;
        mask[length] = m;
        logprobs[length] = lp;
        versions[length] = v;
        length++;
    }

    private void ensure(int more) {
        if (length + more <= ids.length) return;
        int capacity = Math.max(ids.length * 2, length + more);
        ids = Arrays.copyOf(ids, capacity);
        mask = Arrays.copyOf(mask, capacity);
        logprobs = Arrays.copyOf(logprobs, capacity);
        versions = Arrays.copyOf(versions, capacity);
    }
}
