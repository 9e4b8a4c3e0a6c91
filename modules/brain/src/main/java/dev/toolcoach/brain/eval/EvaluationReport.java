package dev.toolcoach.brain.eval;

import dev.toolcoach.tasks.TaskExample;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.tooluse.ToolUse;
import dev.toolcoach.trace.tooluse.ToolUseRecord;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** How a policy did on a list of examples: one greedy rollout per example and its reward. */
public record EvaluationReport(List<Outcome> outcomes) {

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
