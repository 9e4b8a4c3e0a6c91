package dev.toolcoach.tasks;

import dev.toolcoach.trace.Trace;

/**
 * Answer correctness: 1 when the rollout's final answer matches the example's gold answer, else 0
 * (also 0 when the run ended without an answer).
 */
public final class AnswerReward implements TraceReward {

    private final AnswerMatcher matcher;

    public AnswerReward(AnswerMatcher matcher) {
        this.matcher = matcher;
    }

    /** The last number in the answer ({@code $1,628.89} reads as 1628.89) within an absolute tolerance of the gold number. */
    public static AnswerReward numeric(double absoluteTolerance) {
        return new AnswerReward(new AnswerMatcher(AnswerMatcher.Numbers.LAST_WITHIN_ABSOLUTE, absoluteTolerance,
                AnswerMatcher.Text.NEVER));
    }

    /** The answer equals the gold one ignoring case, punctuation and spacing. */
    public static AnswerReward exact() {
        return new AnswerReward(new AnswerMatcher(AnswerMatcher.Numbers.IGNORED, 0, AnswerMatcher.Text.WORDS_EQUAL));
    }

    /** The answer contains the gold one ignoring case, punctuation and spacing (a sentence naming it counts). */
    public static AnswerReward mentions() {
        return new AnswerReward(new AnswerMatcher(AnswerMatcher.Numbers.IGNORED, 0, AnswerMatcher.Text.WORDS_MENTIONED));
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        String gold = example.requireGoldAnswer("answer");
        return trace.finalAnswer() != null && matches(trace.finalAnswer(), gold) ? 1.0 : 0.0;
    }

    public boolean matches(String answer, String gold) {
        return matcher.matches(answer, gold);
    }
}
