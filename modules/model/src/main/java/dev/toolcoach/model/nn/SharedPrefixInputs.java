package dev.toolcoach.model.nn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.Arrays;

/**
 * A teacher-forced batch of B rows of L tokens whose first {@code prefix} tokens are the same in every row (a GRPO
 * group's prompt), packed as one row: the prefix once, then each row's other S = L - prefix tokens
 * ({@link Transformer#hiddenAfterSharedPrefix}). Positions and visibility are {@link StepInputs#scoring}'s: the prefix
 * is the rows' first context, a later token sees it when it is of that context (or padding), and its own row's earlier
 * tokens by the scoring rule.
 *
 * @param tokens    [prefix + B * S]: the prefix, then every row's tokens after it
 * @param positions the RoPE position of each packed token
 * @param contexts  [B * S] each row's context numbers after the prefix (0 = padding)
 * @param rowPositions [B * S] each row's positions after the prefix
 */
public record SharedPrefixInputs(int rows, int prefix, int suffix, int[] tokens, long[] positions, int[] contexts,
                                 long[] rowPositions) {

    /**
     * The longest prefix every row holds alike, in its first context (1) throughout: what {@link #of} may share.
     *
     * @param attention [B][L] context numbers, as {@link StepInputs#scoring} takes them
     */
    public static int commonPrefix(int[][] tokens, int[][] attention) {
        int length = tokens[0].length;
        int p = 0;
        while (p < length) {
            for (int r = 0; r < tokens.length; r++) {
                if (attention[r][p] != 1 || tokens[r][p] != tokens[0][p]) {
                    return p;
                }
            }
            p++;
        }
        return p;
    }

    /**
     * Packs {@code tokens} with their first {@code prefix} shared.
     *
     * @throws IllegalArgumentException when the rows do not share that prefix in their first context, or it leaves no
     *                                  token after it
     */
    public static SharedPrefixInputs of(int[][] tokens, int[][] attention, int prefix) {
        int rows = tokens.length;
        int length = tokens[0].length;
        if (prefix < 1 || prefix >= length || commonPrefix(tokens, attention) < prefix) {
            throw new IllegalArgumentException("the rows do not share a prefix of " + prefix + " tokens before their last");
        }
        StepInputs scoring = StepInputs.scoring(tokens, attention);
        int suffix = length - prefix;
        int[] packed = new int[prefix + rows * suffix];
        long[] positions = new long[packed.length];
        int[] contexts = new int[rows * suffix];
        long[] rowPositions = new long[rows * suffix];
        System.arraycopy(tokens[0], 0, packed, 0, prefix);
        System.arraycopy(scoring.positions(), 0, positions, 0, prefix);
        for (int r = 0; r < rows; r++) {
            System.arraycopy(tokens[r], prefix, packed, prefix + r * suffix, suffix);
            System.arraycopy(scoring.positions(), r * length + prefix, positions, prefix + r * suffix, suffix);
            System.arraycopy(scoring.contexts(), r * length + prefix, contexts, r * suffix, suffix);
            System.arraycopy(scoring.positions(), r * length + prefix, rowPositions, r * suffix, suffix);
        }
        return new SharedPrefixInputs(rows, prefix, suffix, packed, positions, contexts, rowPositions);
    }

    /** [1, 1, P, P]: the prefix's causal mask (with a sliding window, only the last {@code window} positions). */
    NDArray prefixMaskArray(NDManager m, int window) {
        float[] mask = new float[prefix * prefix];
        Arrays.fill(mask, StepInputs.HIDDEN);
        for (int i = 0; i < prefix; i++) {
            for (int j = 0; j <= i; j++) {
                if (window <= 0 || i - j < window) {
                    mask[i * prefix + j] = 0f;
                }
            }
        }
        return m.create(mask, new Shape(1, 1, prefix, prefix));
    }

    /** [B, 1, S, P + S]: each row's tokens after the prefix over the prefix's keys and their own row's. */
    NDArray suffixMaskArray(NDManager m, int window) {
        int keys = prefix + suffix;
        float[] mask = new float[rows * suffix * keys];
        Arrays.fill(mask, StepInputs.HIDDEN);
        for (int r = 0; r < rows; r++) {
            for (int i = 0; i < suffix; i++) {
                int context = contexts[r * suffix + i];
                long position = rowPositions[r * suffix + i];
                int at = (r * suffix + i) * keys;
                if (context == 0 || context == 1) { // the prefix is the first context: real tokens before every later one
                    for (int j = 0; j < prefix; j++) {
                        if (window <= 0 || position - j < window) {
                            mask[at + j] = 0f;
                        }
                    }
                }
                for (int j = 0; j <= i; j++) {
                    int other = contexts[r * suffix + j];
                    boolean visible = other != 0 && (context == 0 || other == context)
                            && (window <= 0 || position - rowPositions[r * suffix + j] < window);
                    if (visible) {
                        mask[at + prefix + j] = 0f;
                    }
                }
            }
        }
        return m.create(mask, new Shape(rows, 1, suffix, keys));
    }
}
