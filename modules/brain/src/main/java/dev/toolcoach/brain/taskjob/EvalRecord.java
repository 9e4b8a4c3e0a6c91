package dev.toolcoach.brain.taskjob;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.toolcoach.brain.eval.EvaluationReport;
import dev.toolcoach.brain.eval.PassAtK;
import org.apache.commons.math3.stat.interval.ConfidenceInterval;
import org.apache.commons.math3.stat.interval.WilsonScoreInterval;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One evaluation in a run's {@code eval.json}.
 *
 * @param examples     test examples evaluated
 * @param correct      of those, answered correctly (greedy)
 * @param accuracy     share answered correctly
 * @param accuracyCi95 the 95 % Wilson score interval of the accuracy, [low, high] (it stays inside [0, 1] and is
 *                     honest near 0 and 1, where the normal approximation is not)
 * @param meanReward   mean of the task reward
 * @param terminations how the runs ended, by termination
 * @param training     pass@k of the sampling policy on training queries at this point, absent when not measured
 * @param promptTokens         the mean length of a rollout's first prompt
 * @param promptTokensPerTurn  the mean context the model saw when it began a reply
 * @param offeredToolsPerQuery the mean number of tools a rollout was offered
 * @param oracleToolsOffered   the share of examples offered every tool their oracle calls (1 without retrieval)
 * @param rolloutsPerSecond    rollouts finished per second of the evaluation's wall time
 * @param byOracleRoute        the accuracy per oracle route (the tools the oracle calls, in order), where the errors
 *                             are; absent when the examples have no oracle calls
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvalRecord(int examples, int correct, double accuracy, @JsonProperty("accuracy_ci95") List<Double> accuracyCi95,
                         @JsonProperty("mean_reward") double meanReward, Map<String, Integer> terminations,
                         @JsonProperty("training_queries") PassAtK training,
                         @JsonProperty("prompt_tokens") Double promptTokens,
                         @JsonProperty("prompt_tokens_per_turn") Double promptTokensPerTurn,
                         @JsonProperty("offered_tools_per_query") Double offeredToolsPerQuery,
                         @JsonProperty("oracle_tools_offered") Double oracleToolsOffered,
                         @JsonProperty("rollouts_per_second") Double rolloutsPerSecond,
                         @JsonProperty("by_oracle_route") Map<String, EvaluationReport.RouteScore> byOracleRoute) {

    public static final double CONFIDENCE = 0.95;

    public static EvalRecord of(EvaluationReport report) {
        Map<String, Integer> ends = new TreeMap<>();
        report.terminations().forEach((t, n) -> ends.put(t.name().toLowerCase(java.util.Locale.ROOT), n));
        int correct = (int) report.outcomes().stream().filter(EvaluationReport.Outcome::correct).count();
        Map<String, EvaluationReport.RouteScore> routes = report.byOracleRoute();
        return new EvalRecord(report.examples(), correct, report.accuracy(), wilson(correct, report.examples()),
                report.meanReward(), ends, null, report.promptTokens(), report.promptTokensPerTurn(),
                report.offeredToolsPerRollout(), report.oracleToolsOffered(), report.rolloutsPerSecond(),
                routes.isEmpty() ? null : routes);
    }

    /** The 95 % Wilson interval of {@code correct} out of {@code n}; [0, 1] when there is nothing to tell. */
    static List<Double> wilson(int correct, int n) {
        if (n == 0) return List.of(0.0, 1.0);
        ConfidenceInterval ci = new WilsonScoreInterval().createInterval(n, correct, CONFIDENCE);
        return List.of(ci.getLowerBound(), ci.getUpperBound());
    }

    /** With pass@k on training queries. */
    public EvalRecord withTraining(PassAtK passAtK) {
        return new EvalRecord(examples, correct, accuracy, accuracyCi95, meanReward, terminations, passAtK, promptTokens,
                promptTokensPerTurn, offeredToolsPerQuery, oracleToolsOffered, rolloutsPerSecond, byOracleRoute);
    }
}
