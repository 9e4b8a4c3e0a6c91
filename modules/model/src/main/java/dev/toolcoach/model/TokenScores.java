package dev.toolcoach.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.nn.Transformer;

/**
 * What a teacher-forced forward says about each target token. Positions whose target is padding hold
 * meaningless values; the caller masks them. Lives in the manager the logits live in.
 *
 * @param logprobs log-prob of each target (rows, length), differentiable
 * @param entropy  entropy of each position's next-token distribution (rows, length): detached (a metric), or
 *                 differentiable where asked for (an entropy bonus)
 */
public record TokenScores(NDArray logprobs, NDArray entropy) {
    /** Logits per slice of positions: 64 Mi values (256 MiB of f32). */
    static final long SLICE_VALUES = 64L << 20;

    /**
     * From final-normed hidden states [rows, length, dim] (positions past {@code targets}' length ignored), projected to
     * the vocabulary a slice of positions at a time: each slice's logits, log-softmax and entropy temporaries are freed
     * before the next, so scoring without gradients never holds more than one slice of [rows, length, vocab]; with
     * gradients, autograd keeps one log-softmax per slice for the backward, one [rows, length, vocab] in all, where
     * taking whole logits kept four. The values equal {@link #fromLogits} of the whole logits.
     */
    public static TokenScores score(Transformer model, NDArray hidden, NDArray targets) {
        return score(model, hidden, targets, SLICE_VALUES, 1f, false);
    }

    /**
     * As {@link #score(Transformer, NDArray, NDArray)}, of the policy at sampling temperature {@code temperature} (logits
     * divided by it): the distribution a sampler at that temperature drew from.
     */
    public static TokenScores score(Transformer model, NDArray hidden, NDArray targets, float temperature) {
        return score(model, hidden, targets, SLICE_VALUES, temperature, false);
    }

    /** As {@link #score(Transformer, NDArray, NDArray, float)}, the entropy differentiable when {@code entropyGradient}. */
    public static TokenScores score(Transformer model, NDArray hidden, NDArray targets, float temperature, boolean entropyGradient) {
        return score(model, hidden, targets, SLICE_VALUES, temperature, entropyGradient);
    }

    static TokenScores score(Transformer model, NDArray hidden, NDArray targets, long sliceValues) {
        return score(model, hidden, targets, sliceValues, 1f, false);
    }

    private static TokenScores score(Transformer model, NDArray hidden, NDArray targets, long sliceValues, float temperature,
                                     boolean entropyGradient) {
        NDManager scope = hidden.getManager();
        long rows = targets.getShape().get(0);
        long length = targets.getShape().get(1);
        long slice = Math.max(1, sliceValues / (rows * model.config().vocabSize()));
        NDList logprobs = new NDList();
        NDList entropy = new NDList();
        for (long p0 = 0; p0 < length; p0 += slice) {
            long p1 = Math.min(length, p0 + slice);
            try (NDManager part = scope.newSubManager()) {
                NDArray h = hidden.get(new NDIndex(":, {}:{}, :", p0, p1));
                h.attach(part); // every op below joins its first operand's manager: this slice's, freed at its end
                NDArray t = targets.get(new NDIndex(":, {}:{}", p0, p1));
                t.attach(part);
                NDArray logits = model.head(h);
                TokenScores s = fromLogits(temperature == 1f ? logits : logits.div(temperature), t, entropyGradient);
                s.logprobs().attach(scope);
                s.entropy().attach(scope);
                logprobs.add(s.logprobs());
                entropy.add(s.entropy());
            }
        }
        return logprobs.size() == 1 ? new TokenScores(logprobs.get(0), entropy.get(0))
                : new TokenScores(NDArrays.concat(logprobs, 1), NDArrays.concat(entropy, 1));
    }

    /**
     * {@link #score} of the hidden states of positions {@code from}.. only (a shared prefix's rows,
     * {@link Transformer#hiddenAfterSharedPrefix}): the positions before get log-prob and entropy 0, so the result lines
     * up with {@code targets}; the caller's mask must leave them out.
     */
    public static TokenScores scoreFrom(Transformer model, NDArray hidden, NDArray targets, int from, float temperature,
                                        boolean entropyGradient) {
        NDArray later = targets.get(new NDIndex(":, {}:", from));
        TokenScores s = score(model, hidden, later, temperature, entropyGradient);
        NDArray none = hidden.getManager().zeros(new Shape(targets.getShape().get(0), from));
        return new TokenScores(NDArrays.concat(new NDList(none, s.logprobs()), 1),
                NDArrays.concat(new NDList(none, s.entropy()), 1));
    }

    /** From logits (rows, length, vocab) and targets (rows, length); the entropy detached. */
    public static TokenScores fromLogits(NDArray logits, NDArray targets) {
        return fromLogits(logits, targets, false);
    }

    /** As {@link #fromLogits(NDArray, NDArray)}, the entropy differentiable when {@code entropyGradient}. */
    public static TokenScores fromLogits(NDArray logits, NDArray targets, boolean entropyGradient) {
        NDArray all = logits.logSoftmax(-1);
        NDArray index = targets.toType(DataType.INT64, false).expandDims(-1);
        NDArray picked = all.gather(index, -1).squeeze(-1);
        // detached unless asked: with its gradient, autograd keeps the slice's probabilities for the backward as well
        NDArray source = entropyGradient ? all : all.stopGradient();
        NDArray entropy = source.exp().mul(source).sum(new int[] {-1}).neg();
        return new TokenScores(picked, entropy);
    }
}
