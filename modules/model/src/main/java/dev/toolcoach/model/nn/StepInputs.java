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
 * @param mask         [B * L * T] for a cached forward; null for scoring, whose [B, L, L] mask is built on the device
 *                     from {@code contexts} (a host array of that size was most of a training step's garbage)
 * @param contexts     for scoring, [B * L] each token's context number (0 = padding); null for a cached forward
 * @param keyPositions [B * T] position of each key column in its row's sequence (meaningless where the mask hides
 *                     the column), for a sliding window
 * @param slots        for a cached forward ({@link #slotted}), the KV slot of each row; null for scoring
 * @param writeColumns for a cached forward, [B * L] the slot column each new token's key and value go to
 * @param lastIndex    for a cached forward, each row's last real token among its L (rows are padded on the right)
 */
public record StepInputs(int rows, int newTokens, int keyColumns, int[] tokens, long[] positions, float[] mask,
                         int[] contexts, long[] keyPositions, int[] slots, int[] writeColumns, int[] lastIndex) {
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
        int[] contexts = new int[b * l];
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
                contexts[r * l + i] = context;
                if (context == 0) {
                    pos[r * l + i] = Math.max(0, seen[last] - 1);
                } else {
                    pos[r * l + i] = seen[context]++;
                    last = context;
                }
            }
        }
        return new StepInputs(b, l, l, ids, pos, null, contexts, pos, null, null, null);
    }

    /**
     * New tokens appended to KV slots ({@link KvSlots}): row r's {@code tokens[r]} go to columns [starts[r],
     * starts[r] + tokens[r].length) of slot {@code slots[r]} at positions counted from the slot's column 0, and each
     * sees every earlier column of its own slot. Rows are padded on the right to the longest; a row with no token is
     * idle (a slot that rides along in a decode step without decoding): it writes one unused column at its
     * {@code starts[r]}, beyond what its slot holds, and sees only column 0. Padding and idle outputs are never used.
     * Attention spans the longest real row's columns, never an idle row's.
     */
    public static StepInputs slotted(int[][] tokens, int[] slots, int[] starts) {
        int b = tokens.length;
        if (slots.length != b || starts.length != b) {
            throw new IllegalArgumentException(b + " rows need as many slots and starts, got " + slots.length + " and " + starts.length);
        }
        int l = 1;
        int t = 1;
        for (int r = 0; r < b; r++) {
            l = Math.max(l, tokens[r].length);
            t = Math.max(t, starts[r] + tokens[r].length);
        }
        int[] ids = new int[b * l];
        long[] pos = new long[b * l];
        int[] write = new int[b * l];
        int[] last = new int[b];
        float[] mask = new float[b * l * t];
        Arrays.fill(mask, HIDDEN);
        long[] keyPos = new long[b * t];
        for (int r = 0; r < b; r++) {
            int n = tokens[r].length;
            last[r] = Math.max(0, n - 1);
            for (int c = 0; c < t; c++) {
                keyPos[r * t + c] = c;
            }
            for (int i = 0; i < l; i++) {
                int at = r * l + i;
                write[at] = starts[r] + i;
                int row = at * t;
                if (i < n) {
                    ids[at] = tokens[r][i];
                    pos[at] = starts[r] + i;
                    Arrays.fill(mask, row, row + starts[r] + i + 1, 0f);
                } else {
                    pos[at] = n == 0 ? 0 : starts[r] + n - 1; // in range: padding and idle rows are never read
                    mask[row] = 0f;
                }
            }
        }
        return new StepInputs(b, l, t, ids, pos, mask, null, keyPos, slots.clone(), write, last);
    }

    /** One past the highest slot column the step writes: what the cache must hold. */
    public int writeColumnLimit() {
        int most = 0;
        for (int c : writeColumns) {
            most = Math.max(most, c + 1);
        }
        return most;
    }

    NDArray tokenArray(NDManager m) {
        return m.create(tokens, new Shape(rows, newTokens));
    }

    NDArray positionArray(NDManager m) {
        return m.create(positions, new Shape(rows, newTokens));
    }

    /**
     * [B, 1, L, T]: broadcast over the heads. With a sliding window
     * ({@code window > 0}) a query also loses every key {@code window} or more positions back, as Transformers'
     * sliding-window mask ({@code kv_idx > q_idx - sliding_window}) does; the same rule holds for a cached decode
     * step, whose cache keeps the older columns but never shows them.
     */
    NDArray maskArray(NDManager m, int window) {
        if (mask == null) {
            return scoringMask(m, window);
        }
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
        return m.create(out, new Shape(rows, 1, newTokens, keyColumns));
    }

    /**
     * The scoring mask [B, 1, L, L] made on the device: token i sees token j when j <= i, j is real, and both are of the
     * same context (padding sees every real token before it); with a sliding window, only the last {@code window}
     * positions.
     */
    private NDArray scoringMask(NDManager m, int window) {
        NDArray context = m.create(contexts, new Shape(rows, newTokens));
        NDArray query = context.expandDims(2); // [B, L, 1]
        NDArray key = context.expandDims(1); // [B, 1, L]
        boolean[] lower = new boolean[newTokens * newTokens];
        for (int i = 0; i < newTokens; i++) {
            Arrays.fill(lower, i * newTokens, i * newTokens + i + 1, true);
        }
        NDArray visible = query.eq(key).logicalOr(query.eq(0)).logicalAnd(key.neq(0))
                .logicalAnd(m.create(lower, new Shape(1, newTokens, newTokens)));
        if (window > 0) {
            NDArray p = m.create(positions, new Shape(rows, newTokens));
            visible = visible.logicalAnd(p.expandDims(2).sub(p.expandDims(1)).lt(window));
        }
        // visible 1 -> 0, hidden 0 -> HIDDEN
        return visible.expandDims(1).toType(ai.djl.ndarray.types.DataType.FLOAT32, false).sub(1f).mul(-HIDDEN);
    }
}
