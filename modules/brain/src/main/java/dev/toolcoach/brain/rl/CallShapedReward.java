package dev.toolcoach.brain.rl;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The task reward with partial credit for calling tools as the oracle does, for GRPO: while a small
 * model's answers are still rarely right, how many argument values it copied correctly separates the
 * rollouts of a group. {@code (task + callWeight * matched / oracleArguments) / (1 + callWeight)}, where an
 * argument matches when the rollout's call at the same position names the same tool and gives the same
 * value. Examples without oracle calls get the task reward alone.
 */
public record CallShapedReward(TraceReward task, double callWeight) implements TraceReward {

    public CallShapedReward {
        Objects.requireNonNull(task, "task");
        if (!(callWeight >= 0)) throw new IllegalArgumentException("callWeight must be >= 0, got " + callWeight);
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        List<ToolCall> oracle = example.goldCalls();
        double answer = task.score(trace, example);
        int total = oracle.stream().mapToInt(c -> c.arguments().size()).sum();
        if (total == 0) return answer;
        List<ToolCall> made = trace.turns().stream().map(Turn::parsedCompletion).filter(Objects::nonNull)
                .flatMap(p -> p.toolCalls().stream()).toList();
        int matched = 0;
        for (int i = 0; i < oracle.size() && i < made.size(); i++) {
            if (!oracle.get(i).name().equals(made.get(i).name())) continue;
            Map<String, Object> given = made.get(i).arguments();
            for (Map.Entry<String, Object> a : oracle.get(i).arguments().entrySet()) {
                if (sameValue(a.getValue(), given.get(a.getKey()))) matched++;
            }
        }
        return (answer + callWeight * matched / total) / (1 + callWeight);
    }

    private static boolean sameValue(Object expected, Object actual) {
        if (expected instanceof Number e && actual instanceof Number a) return Math.abs(e.doubleValue() - a.doubleValue()) < 1e-9;
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            if (e.size() != a.size()) return false;
            for (int i = 0; i < e.size(); i++) {
                if (!sameValue(e.get(i), a.get(i))) return false;
            }
            return true;
        }
        return Objects.equals(expected, actual);
    }
}
