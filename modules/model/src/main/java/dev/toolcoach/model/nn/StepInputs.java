package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.Arrays;

/**
 * Host-side inputs of one forward call over B rows of L new tokens attending to T key columns:
 * token ids, RoPE positions and an additive attention mask (0 = visible, large negative = hidden).
 * Built in Java and shipped to the device in three copies, so a step has no per-row device ops.
 *
 * @param keyPositions [B * T] position of each key column in its row's sequence (meaningless where the mask hides
 *                     the column), for a sliding window
 */
public record StepInputs(int rows, int newTokens, int keyColumns, int[] tokens, long[] positions, float[] mask,
                         long[] keyPositions) {
    /** Large negative rather than -inf so a fully hidden (padding) row softmaxes to uniform instead of NaN. */
    static final float HIDDEN = -1e9f;

    /**
     * Teacher-forced batch without a cache: row b sees its own earlier tokens whose attention mask is 1.
     * Positions count only unmasked tokens, so left and right padding both work.
     *
     * <p>A row may also hold several contexts one after another (a trace whose chat template rewrote earlier
     * turns): {@code attention} then numbers each token's context from 1, and a token sees only the earlier
     * tokens of its own context, at positions counted from that context's start, exactly as it was generated.
     * Padding (0) sees every real token before it, so its (unused) output stays finite.
     */
    public static StepInputs scoring(int[][] tokens, int[][] attention) {
        int b = tokens.length;
        int l = tokens[0].length;
        int[] ids = new int[b * l];
        long[] pos = new long[b * l];
        float[] mask = new float[b * l * l];
        for (int r = 0; r < b; r++) {
            if (tokens[r].length != l || attention[r].length != l) {
                throw new IllegalArgumentException("row " + r + " has length " + tokens[r].length + "/" + attention[r].length + ", expected " + l);
            }
            int[] seen = new int[l + 2]; // tokens so far per context number
            int last = 0; // the context of the last real token
            for (int i = 0; i < l; i++) {
                int context = attention[r][i];
                if (context < 0 || context > l + 1) {
                    throw new IllegalArgumentException("row " + r + " column " + i + " has context " + context
                            + ", expected 0 (padding) to " + (l + 1));
                }
                ids[r * l + i] = tokens[r][i];
                if (context == 0) {
                    pos[r * l + i] = Math.max(0, seen[last] - 1);
                } else {
                    pos[r * l + i] = seen[context]++;
                    last = context;
                }
                for (int j = 0; j < l; j++) {
                    int other = attention[r][j];
                    boolean visible = j <= i && other != 0 && (context == 0 || other == context);
                    mask[(r * l + i) * l + j] = visible ? 0f : HIDDEN;
                }
            }
        }
        return new StepInputs(b, l, l, ids, pos, mask, pos);
    }

    /**
     * New tokens appended to a cache at columns [cache.length(), cache.length() + L); row b's sequence starts at
     * column {@code start[b]} (columns left of it belong to no one). Reserves the cache room first, since the
     * mask spans the cache's whole capacity.
     */
    public static StepInputs cached(int[][] tokens, int[] start, KvCache cache) {
        int b = tokens.length;
        int l = tokens[0].length;
        cache.reserve(l);
        int t = cache.capacity();
        int base = cache.length();
        int[] ids = new int[b * l];
        long[] pos = new long[b * l];
        float[] mask = new float[b * l * t];
        Arrays.fill(mask, HIDDEN);
        long[] keyPos = new long[b * t];
        for (int r = 0; r < b; r++) {
            for (int c = 0; c < t; c++) {
                keyPos[r * t + c] = c - start[r];
            }
            for (int i = 0; i < l; i++) {
                int col = base + i;
                ids[r * l + i] = tokens[r][i];
                pos[r * l + i] = Math.max(0, col - start[r]);
                if (col >= start[r]) { // a left-padding query sees nothing; its output is never used
                    Arrays.fill(mask, (r * l + i) * t + start[r], (r * l + i) * t + col + 1, 0f);
                }
            }
        }
        return new StepInputs(b, l, t, ids, pos, mask, keyPos);
    }

    NDArray tokenArray(NDManager m) {
        return m.create(tokens, new Shape(rows, newTokens));
    }

    NDArray positionArray(NDManager m) {
        return m.create(positions, new Shape(rows, newTokens));
    }

    /**
     * [B, 1, 1, L, T]: broadcast over kv heads and the query heads of each kv group. With a sliding window
     * ({@code window > 0}) a query also loses every key {@code window} or more positions back, as Transformers'
     * sliding-window mask ({@code kv_idx > q_idx - sliding_window}) does; the same rule holds for a cached decode
     * step, whose cache keeps the older columns but never shows them.
     */
    NDArray maskArray(NDManager m, int window) {
        float[] out = mask;
        if (window > 0) {
            out = mask.clone();
            for (int r = 0; r < rows; r++) {
                for (int i = 0; i < newTokens; i++) {
                    long q = positions[r * newTokens + i];
                    int at = (r * newTokens + i) * keyColumns;
                    for (int j = 0; j < keyColumns; j++) {
                        if (q - keyPositions[r * keyColumns + j] >= window) {
                            out[at + j] = HIDDEN;
                        }
                    }
                }
            }
        }
        return m.create(out, new Shape(rows, 1, 1, newTokens, keyColumns));
    }
}
