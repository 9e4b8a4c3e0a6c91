package dev.toolcoach.rewards;

import dev.toolcoach.tasks.AnswerText;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** SQuAD-style F1 of the normalised words of the final answer against the gold answer; no answer scores 0. */
public final class TokenF1Reward implements TraceReward {

    @Override
    public double score(Trace trace, RewardContext example) {
        String gold = example.requireGoldAnswer("token_f1");
        return trace.finalAnswer() == null ? 0.0 : f1(AnswerText.squadTokens(trace.finalAnswer()), AnswerText.squadTokens(gold));
    }

    static double f1(List<String> predicted, List<String> gold) {
        if (predicted.isEmpty() || gold.isEmpty()) return predicted.isEmpty() && gold.isEmpty() ? 1.0 : 0.0;
        Map<String, Integer> goldCounts = new HashMap<>();
        gold.forEach(w -> goldCounts.merge(w, 1, Integer::sum));
        int common = 0;
        for (String w : predicted) {
            Integer left = goldCounts.get(w);
            if (left != null && left > 0) {
                common++;
                goldCounts.put(w, left - 1);
            }
        }
        if (common == 0) return 0.0;
        double precision = (double) common / predicted.size();
        double recall = (double) common / gold.size();
        return 2 * precision * recall / (precision + recall);
    }
}
