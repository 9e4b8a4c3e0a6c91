package dev.toolcoach.rewards;

import dev.toolcoach.trace.Trace;

import java.util.OptionalDouble;

/**
 * 1 when the final answer matches the gold answer, else 0. Two numbers match within a relative
 * tolerance; anything else matches when the normalised texts are equal. No answer scores 0.
 */
public final class ExactMatchReward implements TraceReward {

    public static final double DEFAULT_TOLERANCE = 1e-4;

    private final double relativeTolerance;

    public ExactMatchReward(double relativeTolerance) {
        if (relativeTolerance < 0) throw new IllegalArgumentException("tolerance must be >= 0: " + relativeTolerance);
        this.relativeTolerance = relativeTolerance;
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        String gold = example.requireGoldAnswer("exact_match");
        return trace.finalAnswer() != null && matches(trace.finalAnswer(), gold) ? 1.0 : 0.0;
    }

    public boolean matches(String answer, String gold) {
        OptionalDouble a = AnswerText.number(answer);
        OptionalDouble g = AnswerText.number(gold);
        if (a.isPresent() && g.isPresent()) return AnswerText.closeEnough(a.getAsDouble(), g.getAsDouble(), relativeTolerance);
        return AnswerText.normalize(answer).equals(AnswerText.normalize(gold));
    }
}
