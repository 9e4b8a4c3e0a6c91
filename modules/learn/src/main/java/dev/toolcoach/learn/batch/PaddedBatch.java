package dev.toolcoach.learn.batch;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;

import java.util.Arrays;
import java.util.List;

/**
 * Rows right-padded to a common length, flattened row-major on the host. Padding carries mask 0, so
 * it never contributes to a loss (the model is causal, so right padding does not change real tokens).
 */
public record PaddedBatch(int rows, int length, int[] rowLengths, int[] inputIds, int[] targets, float[] mask,
                          float[] behaviourLogprobs, int[] policyVersions, float[] advantages, float[] weights,
                          int[] contexts) {

    public static PaddedBatch of(List<BatchRow> batchRows) {
        if (batchRows.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one row");
        }
        int rows = batchRows.size();
        int length = batchRows.stream().mapToInt(r -> r.sequence().length()).max().orElseThrow();
        int[] inputs = new int[rows * length];
        int[] targets = new int[rows * length];
        float[] mask = new float[rows * length];
        float[] behaviour = new float[rows * length];
        int[] versions = new int[rows * length];
        Arrays.fill(versions, -1);
        float[] advantages = new float[rows];
        float[] weights = new float[rows];
        int[] lengths = new int[rows];
        int[] contexts = new int[rows * length];
        for (int b = 0; b < rows; b++) {
            BatchRow row = batchRows.get(b);
            TrainingSequence s = row.sequence();
            int off = b * length;
            System.arraycopy(s.inputIds(), 0, inputs, off, s.length());
            System.arraycopy(s.targets(), 0, targets, off, s.length());
            System.arraycopy(s.mask(), 0, mask, off, s.length());
            System.arraycopy(s.behaviourLogprobs(), 0, behaviour, off, s.length());
            System.arraycopy(s.policyVersions(), 0, versions, off, s.length());
            System.arraycopy(s.contexts(), 0, contexts, off, s.length());
            lengths[b] = s.length();
            advantages[b] = row.advantage();
            weights[b] = row.weight();
        }
        return new PaddedBatch(rows, length, lengths, inputs, targets, mask, behaviour, versions, advantages, weights, contexts);
    }

    public int generatedTokens() {
        int n = 0;
        for (float m : mask) n += (int) m;
        return n;
    }

    /** Mean of (current version - sampling version) over generated tokens. */
    public double meanStaleness(int currentVersion) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < mask.length; i++) {
            if (mask[i] != 0f) {
                sum += currentVersion - policyVersions[i];
                n++;
            }
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Input ids per row (padded), as the model's scoring inputs take them. */
    public int[][] inputRows() {
        int[][] out = new int[rows][];
        for (int b = 0; b < rows; b++) {
            out[b] = Arrays.copyOfRange(inputIds, b * length, (b + 1) * length);
        }
        return out;
    }

    /**
     * The scoring attention rows: each real token's context number (1 unless a template rewrote earlier turns
     * of its trace), 0 on padding.
     */
    public int[][] attentionRows() {
        int[][] out = new int[rows][];
        for (int b = 0; b < rows; b++) {
            out[b] = Arrays.copyOfRange(contexts, b * length, (b + 1) * length);
        }
        return out;
    }

    /** Copies the batch to the device; the arrays belong to {@code manager}. */
    public BatchTensors toTensors(NDManager manager) {
        Shape shape = new Shape(rows, length);
        var mask2 = manager.create(mask, shape);
        var weight = manager.create(weights, new Shape(rows, 1));
        return new BatchTensors(
                manager.create(inputIds, shape),
                manager.create(targets, shape),
                mask2,
                manager.create(behaviourLogprobs, shape),
                manager.create(advantages, new Shape(rows, 1)),
                mask2.mul(weight));
    }
}
