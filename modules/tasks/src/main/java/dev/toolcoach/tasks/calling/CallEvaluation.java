package dev.toolcoach.tasks.calling;

import dev.toolcoach.agent.ActionFormat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Scores model outputs on function-calling examples and counts the outcome per error kind. */
public final class CallEvaluation {

    private final CallMatchReward reward;

    /** @param format the action format the outputs are written in */
    public CallEvaluation(ActionFormat format, boolean requireThinking) {
        this.reward = new CallMatchReward(format, requireThinking);
    }

    /**
     * The outcome over all examples; an example with no output counts as wrong under {@code missing}.
     *
     * @param outputs model output per example id
     */
    public Summary evaluate(List<CallingExample> examples, Map<String, String> outputs) {
        Map<CheckError, Integer> errors = new EnumMap<>(CheckError.class);
        int correct = 0;
        int missing = 0;
        for (CallingExample ex : examples) {
            String output = outputs.get(ex.id());
            if (output == null) {
                missing++;
                continue;
            }
            CheckResult r = reward.judge(ex, output);
            if (r.isCorrect()) correct++;
            else errors.merge(r.error(), 1, Integer::sum);
        }
        Set<String> known = examples.stream().map(CallingExample::id).collect(Collectors.toSet());
        long unknown = outputs.keySet().stream().filter(id -> !known.contains(id)).count();
        return new Summary(examples.size(), correct, missing, (int) unknown, errors);
    }

    /**
     * @param total      examples scored
     * @param correct    examples whose calls matched
     * @param missing    examples without a prediction (counted wrong)
     * @param unknownIds predictions for ids not among the examples (ignored)
     * @param errors     wrong examples per error kind
     */
    public record Summary(int total, int correct, int missing, int unknownIds, Map<CheckError, Integer> errors) {
        public Summary {
            errors = Map.copyOf(errors);
        }

        public double accuracy() {
            return total == 0 ? 0.0 : (double) correct / total;
        }
    }
}
