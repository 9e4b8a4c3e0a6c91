package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.eval.EvaluationReport;

import java.util.Map;
import java.util.TreeMap;

/**
 * One evaluation in a run's {@code eval.json}.
 *
 * @param examples     test examples evaluated
 * @param accuracy     share answered correctly
 * @param meanReward   mean of the task reward
 * @param terminations how the runs ended, by termination
 */
public record EvalRecord(int examples, double accuracy, @JsonProperty("mean_reward") double meanReward,
                         Map<String, Integer> terminations) {

    public static EvalRecord of(EvaluationReport report) {
        Map<String, Integer> ends = new TreeMap<>();
        report.terminations().forEach((t, n) -> ends.put(t.name().toLowerCase(java.util.Locale.ROOT), n));
        return new EvalRecord(report.examples(), report.accuracy(), report.meanReward(), ends);
    }
}
