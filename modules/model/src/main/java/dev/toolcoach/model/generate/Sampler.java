package dev.toolcoach.model.generate;

import dev.toolcoach.lm.SamplingParams;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Picks the next token from logits and reports its log-probability under the distribution actually sampled
 * from (after temperature, top-k and top-p renormalisation) — the behaviour log-prob the learner needs.
 * Greedy decoding samples from a point mass, so its log-prob is 0.
 */
public final class Sampler {
    private final SamplingParams params;
    private final SplittableRandom random;

    public record Sampled(int token, float logProb) {
    }

    public Sampler(SamplingParams params) {
        this.params = params;
        this.random = new SplittableRandom(params.seed());
    }

    /** Samples from {@code logits[offset, offset + vocab)}. */
    public Sampled sample(float[] logits, int offset, int vocab) {
        if (params.isGreedy()) {
            int best = offset;
            for (int i = offset + 1; i < offset + vocab; i++) {
                if (logits[i] > logits[best]) {
                    best = i;
                }
            }
            return new Sampled(best - offset, 0f);
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < vocab; i++) {
            max = Math.max(max, logits[offset + i]);
        }
        double[] p = new double[vocab];
        for (int i = 0; i < vocab; i++) {
            double z = (logits[offset + i] - max) / params.temperature();
            // below e^-50 of the most likely token a probability cannot move a double sum of ~1 (its ulp is 2e-16), so
            // exp is skipped: most of a peaked policy's vocabulary, and most of the sampler's time
            p[i] = z < -50 ? 0 : Math.exp(z);
        }
        double floor = keptFloor(p);
        double kept = 0;
        int last = -1;
        for (int i = 0; i < vocab; i++) {
            if (p[i] >= floor) {
                kept += p[i];
                last = i;
            }
        }
        // walk the kept tokens in id order: reproducible for a seed, no sorting of ids needed
        double r = random.nextDouble() * kept;
        double acc = 0;
        int chosen = last;
        for (int i = 0; i < vocab; i++) {
            if (p[i] >= floor) {
                acc += p[i];
                if (r < acc) {
                    chosen = i;
                    break;
                }
            }
        }
        return new Sampled(chosen, (float) Math.log(p[chosen] / kept));
    }

    /**
     * Only tokens above (1 - topP) / (V - 1) of the total can be in the nucleus (llama2.c's cut), so only those are
     * sorted; with a peaked distribution that is a handful instead of the whole vocabulary.
     */
    private double[] nucleusCandidates(double[] p) {
        double total = 0;
        for (double v : p) {
            total += v;
        }
        double cutoff = (1 - params.topP()) / (p.length - 1) * total;
        double[] out = new double[p.length];
        int n = 0;
        for (double v : p) {
            if (v >= cutoff) {
                out[n++] = v;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The smallest (unnormalised) probability top-k and top-p keep: top-k keeps the k most probable tokens,
     * top-p then the most probable ones whose mass reaches p of what top-k kept (ties at the edge are all kept).
     */
    private double keptFloor(double[] p) {
        if (params.topK() == 0 && params.topP() >= 1f) {
            return 0;
        }
        double[] sorted = params.topK() == 0 ? nucleusCandidates(p) : p.clone();
        Arrays.sort(sorted); // ascending
        int n = params.topK() > 0 ? Math.min(params.topK(), sorted.length) : sorted.length;
        int lowest = sorted.length - n;
        if (params.topP() < 1f) {
            // the mass top-p is measured against: what top-k kept, or everything (not just the sorted candidates)
            double total = 0;
            for (double v : params.topK() > 0 ? Arrays.copyOfRange(sorted, lowest, sorted.length) : p) {
                total += v;
            }
            double acc = 0;
            for (int i = sorted.length - 1; i >= lowest; i--) {
                acc += sorted[i];
                if (acc >= params.topP() * total) {
                    return sorted[i];
                }
            }
        }
        return sorted[lowest];
    }
}
