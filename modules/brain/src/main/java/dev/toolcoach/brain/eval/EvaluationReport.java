package dev.toolcoach.brain.eval;

import dev.toolcoach.retrieval.offer.QueryTools;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a policy did on a list of examples: one greedy rollout per example and its reward.
 *
 * @param wallSeconds how long the whole evaluation took (every rollout submitted at once)
 */
public record EvaluationReport(List<Outcome> outcomes, double wallSeconds) {

    /** The route of examples whose oracle answers without calling a tool. */
    public static final String NO_CALL = "(no call)";

    /** One example's rollout; it counts as correct when the task reward gave full marks. */
    public record Outcome(TaskExample example, Trace trace, double reward) {
        public boolean correct() {
            return reward >= 1.0;
        }
    }

    public EvaluationReport {
        outcomes = List.copyOf(outcomes);
    }

    public int examples() {
        return outcomes.size();
    }

    /** Fraction of examples answered correctly (0 for no examples). */
    public double accuracy() {
        return outcomes.isEmpty() ? 0 : (double) outcomes.stream().filter(Outcome::correct).count() / outcomes.size();
    }

    /** The mean number of tokens the model saw when it began a reply (its context then), over every turn of every rollout. */
    public double promptTokensPerTurn() {
        long tokens = 0;
        long turns = 0;
        for (Outcome o : outcomes) {
            int[] starts = o.trace().tokens().contextStarts();
            for (Turn turn : o.trace().turns()) {
                int contextStart = 0;
                for (int s : starts) {
                    if (s <= turn.tokenStart()) contextStart = s;
                }
                tokens += turn.tokenStart() - contextStart;
                turns++;
            }
        }
        return turns == 0 ? 0 : (double) tokens / turns;
    }

    /** The mean length of the prompt each rollout started with (what a catalogue in the system prompt costs, even when it leaves no room to reply). */
    public double promptTokens() {
        return outcomes.stream().mapToInt(o -> o.trace().tokens().promptLength()).average().orElse(0);
    }

    /** The share of examples with oracle calls that were offered every tool their oracle calls (what retrieval left solvable). */
    public double oracleToolsOffered() {
        return QueryTools.oracleToolRecall(outcomes.stream().map(Outcome::example).toList());
    }

    /** The mean number of tools each rollout was offered. */
    public double offeredToolsPerRollout() {
        return outcomes.stream().mapToInt(o -> o.trace().offeredTools().size()).average().orElse(0);
    }

    /** Rollouts finished per second of the evaluation's wall time. */
    public double rolloutsPerSecond() {
        return wallSeconds > 0 ? outcomes.size() / wallSeconds : 0;
    }

    public double meanReward() {
        return outcomes.stream().mapToDouble(Outcome::reward).average().orElse(0);
    }

    /**
     * Correct answers per oracle route, the tools an example's oracle calls in order ({@code compound_interest > cagr});
     * routes sorted by name, examples whose oracle calls nothing (or that have no oracle) under {@value #NO_CALL}, and
     * empty when no example has an oracle call (a dataset without oracle solutions).
     */
    public Map<String, RouteScore> byOracleRoute() {
        Map<String, int[]> tallies = new TreeMap<>();
        boolean anyCall = false;
        for (Outcome o : outcomes) {
            List<String> tools = o.example().oracleTools();
            anyCall |= !tools.isEmpty();
            int[] tally = tallies.computeIfAbsent(tools.isEmpty() ? NO_CALL : String.join(" > ", tools), route -> new int[2]);
            tally[0]++;
            if (o.correct()) tally[1]++;
        }
        Map<String, RouteScore> scores = new LinkedHashMap<>();
        if (anyCall) tallies.forEach((route, t) -> scores.put(route, new RouteScore(t[0], t[1], (double) t[1] / t[0])));
        return scores;
    }

    /** One oracle route's examples, those answered correctly, and their share. */
    public record RouteScore(int examples, int correct, double accuracy) {
    }

    /** How many runs ended each way. */
    public Map<Termination, Integer> terminations() {
        Map<Termination, Integer> counts = new EnumMap<>(Termination.class);
        outcomes.forEach(o -> counts.merge(o.trace().termination(), 1, Integer::sum));
        return counts;
    }

    /** The tool-use records of every rollout, each with its reward; {@code task} is their context. */
    public List<ToolUseRecord> toolUse(String run, String task) {
        return outcomes.stream().flatMap(o -> ToolUse.records(o.trace(), run, task, o.reward()).stream()).toList();
    }

    @Override
    public String toString() {
        return "accuracy %.3f (%d/%d), mean reward %.3f, terminations %s".formatted(accuracy(),
                outcomes.stream().filter(Outcome::correct).count(), examples(), meanReward(), terminations());
    }
}
