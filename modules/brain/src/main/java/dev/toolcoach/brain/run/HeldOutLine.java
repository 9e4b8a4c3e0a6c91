package dev.toolcoach.brain.run;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One held-out evaluation while training ({@link dev.toolcoach.brain.eval.PeriodicEvaluation}), a line of the run's
 * {@value #FILE}.
 *
 * @param step         the job step after which it ran
 * @param version      the adapter version it evaluated
 * @param examples     held-out examples answered
 * @param correct      of those, answered correctly (greedy)
 * @param accuracy     share answered correctly
 * @param accuracyCi95 its 95 % Wilson score interval, [low, high]
 * @param meanReward   mean of the task reward
 */
public record HeldOutLine(long step, int version, int examples, int correct, double accuracy,
                          @JsonProperty("accuracy_ci95") List<Double> accuracyCi95, @JsonProperty("mean_reward") double meanReward) {
    public static final String FILE = "heldout.jsonl";

    public HeldOutLine {
        accuracyCi95 = List.copyOf(accuracyCi95);
    }
}
