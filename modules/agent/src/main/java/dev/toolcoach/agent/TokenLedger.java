package dev.toolcoach.agent;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.trace.TokenRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The growing token record of one run. The context only ever grows by appending: the prompt once,
 * then each reply's generated ids (loss mask 1, with their log-probs and versions) and each
 * observation's ids (loss mask 0). When a chat template rewrote earlier turns, the run goes on in a
 * new context that starts with its own prompt; the record keeps every context, one after another.
 */
final class TokenLedger {

    private static final int NOT_GENERATED = -1;

    private int[] ids = new int[256];
    private int[] mask = new int[256];
    private float[] logprobs = new float[256];
    private int[] versions = new int[256];
    private int length;
    private int promptLength = -1;
    private final List<Integer> contextStarts = new ArrayList<>();

    void appendPrompt(int[] promptIds) {
        if (promptLength >= 0) throw new IllegalStateException("the prompt is already in the ledger");
        appendObserved(promptIds);
        promptLength = length;
    }

    /** Starts a new context whose first tokens are {@code promptIds}; the model sees nothing before them. */
    void startContext(int[] promptIds) {
        if (promptLength < 0) throw new IllegalStateException("the first context starts with appendPrompt");
        contextStarts.add(length);
        appendObserved(promptIds);
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

    /** Tokens of the current context. */
    int contextLength() {
        return length - contextStart();
    }

    /** The current context: what the model sees next. */
    int[] contextIds() {
        return Arrays.copyOfRange(ids, contextStart(), length);
    }

    private int contextStart() {
        return contextStarts.isEmpty() ? 0 : contextStarts.get(contextStarts.size() - 1);
    }

    TokenRecord toRecord() {
        return new TokenRecord(Math.max(promptLength, 0), Arrays.copyOf(ids, length), Arrays.copyOf(mask, length),
                Arrays.copyOf(logprobs, length), Arrays.copyOf(versions, length),
                contextStarts.stream().mapToInt(Integer::intValue).toArray());
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
