package dev.toolcoach.brain.taskjob;

import dev.toolcoach.brain.run.StepLine;
import dev.toolcoach.learn.core.Algorithm;
import dev.toolcoach.learn.core.GrpoMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the training phase did to test accuracy, said plainly, and when it did not clearly help, what the run's own
 * figures say about why: the gain over the warm-up (or, without one, over the model as given) with its 95 % interval (two proportions on the same test questions,
 * treated as independent, which overstates the interval a little), then the signs of a phase that had little to learn
 * from: few informative groups, a policy that hardly explores, a ceiling (pass@k) close to pass@1, no step trained.
 */
public final class TrainingVerdict {
    /** Below this share of informative groups, most of what the coach samples teaches nothing. */
    static final double FEW_INFORMATIVE = 0.3;
    /** Below this mean entropy per generated token (nats), sampling at temperature 1 nearly repeats the greedy reply. */
    static final double LOW_ENTROPY = 0.1;
    /** pass@k within this of pass@1: sampling finds hardly any answer the greedy policy misses. */
    static final double NARROW_CEILING = 0.05;

    private TrainingVerdict() {
    }

    /**
     * The lines to show after a job, or none when the job has no evaluation before and after training to compare.
     *
     * @param evaluations the run's evaluations by phase
     * @param algorithm   the training phase's algorithm
     * @param steps       the run's step lines
     */
    public static List<String> of(Map<String, EvalRecord> evaluations, Algorithm algorithm, List<StepLine> steps) {
        boolean warmedUp = evaluations.containsKey("after_warmup");
        EvalRecord before = evaluations.get(warmedUp ? "after_warmup" : "before_training");
        EvalRecord after = evaluations.get("after_" + algorithm.lowerName());
        if (before == null || after == null) return List.of();
        double gain = after.accuracy() - before.accuracy();
        double half = 1.96 * Math.sqrt(variance(before) + variance(after));
        List<String> lines = new ArrayList<>();
        String verdict = gain - half > 0 ? "raised test accuracy" : gain + half < 0 ? "lowered test accuracy"
                : "changed test accuracy by less than its noise";
        lines.add(String.format(Locale.ROOT, "%s %s: %+.1f points over the %s (95%% CI %+.1f to %+.1f, %d test questions)",
                algorithm.name(), verdict, 100 * gain, warmedUp ? "warm-up" : "model as given", 100 * (gain - half), 100 * (gain + half), after.examples()));
        if (gain - half > 0) return lines;
        // a GRPO step whose groups all scored alike trains no token and measures no entropy
        List<StepLine> trained = steps.stream()
                .filter(s -> !(s.learner() instanceof GrpoMetrics m) || m.tokensTrained() > 0).toList();
        if (trained.isEmpty()) {
            lines.add("why: no learner step was trained (every sampled group scored alike, or the job ended first)");
            return lines;
        }
        double informative = steps.stream().mapToDouble(StepLine::informativeFraction).filter(Double::isFinite).average().orElse(Double.NaN);
        if (informative < FEW_INFORMATIVE) {
            lines.add(String.format(Locale.ROOT, "why: only %.0f%% of the sampled groups differed in reward: most queries are always "
                    + "right or always wrong for this policy, so few carry a signal", 100 * informative));
        }
        double entropy = trained.stream().map(StepLine::learner).filter(m -> m instanceof GrpoMetrics)
                .mapToDouble(m -> ((GrpoMetrics) m).entropy()).average().orElse(Double.NaN);
        if (entropy < LOW_ENTROPY) {
            lines.add(String.format(Locale.ROOT, "why: the policy's entropy averaged %.3f nats per token: sampling at temperature 1 "
                    + "rarely leaves the greedy reply, so most groups repeat one answer (warmup.json tells whether the warm-up left "
                    + "it calibrated, held-out entropy near held-out loss, or memorised)", entropy));
        }
        if (before.training() != null && before.training().passAtK() == 0) {
            lines.add(String.format(Locale.ROOT, "why: after the warm-up no sample of the training queries was right (pass@%d 0%%): "
                    + "there is nothing to reinforce; the warm-up did not learn the task (warmup.json: its held-out loss)",
                    before.training().k()));
        } else if (before.training() != null && before.training().passAtK() - before.training().passAt1() < NARROW_CEILING) {
            lines.add(String.format(Locale.ROOT, "why: after the warm-up pass@%d on the training queries was %.1f%% against pass@1 "
                    + "%.1f%%: sampling finds few answers the policy does not already give", before.training().k(),
                    100 * before.training().passAtK(), 100 * before.training().passAt1()));
        }
        if (lines.size() == 1) {
            lines.add(String.format(Locale.ROOT, "why: not clear from the run's figures (informative groups %.0f%%, entropy %.3f "
                    + "nats per token); one run's change this small needs more seeds to tell (coach-node runs compare)",
                    100 * informative, entropy));
        }
        return lines;
    }

    private static double variance(EvalRecord r) {
        return r.examples() == 0 ? 0 : r.accuracy() * (1 - r.accuracy()) / r.examples();
    }
}
