package dev.toolcoach.brain.eval;

import dev.toolcoach.retrieval.offer.QueryTools;
import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How a policy did on a list of examples: one greedy rollout per example and its reward.
 *
 * @param wallSeconds how long the whole evaluation took (every rollout submitted at once)
 */
public record EvaluationReport(List<Outcome> outcomes, double wallSeconds) {

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
