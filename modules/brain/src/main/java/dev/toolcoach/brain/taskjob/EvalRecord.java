package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param accuracyCi95 the 95% Wilson interval of the accuracy (absent in records written before it was kept)
 * @param promptTokens         the mean length of a rollout's first prompt
 * @param promptTokensPerTurn  the mean context the model saw when it began a reply
 * @param offeredToolsPerQuery the mean number of tools a rollout was offered
 * @param oracleToolsOffered   the share of examples offered every tool their oracle calls (1 without retrieval)
 * @param rolloutsPerSecond    rollouts finished per second of the evaluation's wall time
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvalRecord(int examples, double accuracy, @JsonProperty("mean_reward") double meanReward,
                         Map<String, Integer> terminations, @JsonProperty("accuracy_ci95") double[] accuracyCi95,
                         @JsonProperty("prompt_tokens") Double promptTokens,
                         @JsonProperty("prompt_tokens_per_turn") Double promptTokensPerTurn,
                         @JsonProperty("offered_tools_per_query") Double offeredToolsPerQuery,
                         @JsonProperty("oracle_tools_offered") Double oracleToolsOffered,
                         @JsonProperty("rollouts_per_second") Double rolloutsPerSecond) {

    public static EvalRecord of(EvaluationReport report) {
        Map<String, Integer> ends = new TreeMap<>();
        report.terminations().forEach((t, n) -> ends.put(t.name().toLowerCase(java.util.Locale.ROOT), n));
        return new EvalRecord(report.examples(), report.accuracy(), report.meanReward(), ends, report.accuracyInterval95(),
                report.promptTokens(), report.promptTokensPerTurn(), report.offeredToolsPerRollout(),
                report.oracleToolsOffered(), report.rolloutsPerSecond());
    }
}
