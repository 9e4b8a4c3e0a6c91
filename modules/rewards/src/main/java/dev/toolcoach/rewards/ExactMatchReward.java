package dev.toolcoach.rewards;

import dev.toolcoach.tasks.AnswerMatcher;
import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

/**
 * 1 when the final answer matches the gold answer, else 0. Two numbers match within a relative
 * tolerance; anything else matches when the normalised texts are equal. No answer scores 0.
 */
public final class ExactMatchReward implements TraceReward {

    public static final double DEFAULT_TOLERANCE = 1e-4;

    private final AnswerMatcher matcher;

    public ExactMatchReward(double relativeTolerance) {
        if (relativeTolerance < 0) throw new IllegalArgumentException("tolerance must be >= 0: " + relativeTolerance);
        this.matcher = new AnswerMatcher(AnswerMatcher.Numbers.WHOLE_WITHIN_RELATIVE, relativeTolerance,
                AnswerMatcher.Text.SQUAD_EQUAL);
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        String gold = example.requireGoldAnswer("exact_match");
        return trace.finalAnswer() != null && matches(trace.finalAnswer(), gold) ? 1.0 : 0.0;
    }

    public boolean matches(String answer, String gold) {
        return matcher.matches(answer, gold);
    }
}
