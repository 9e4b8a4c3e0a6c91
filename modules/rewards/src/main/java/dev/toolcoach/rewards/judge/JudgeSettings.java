package dev.toolcoach.rewards.judge;

/**
 * How the ranking judge asks.
 *
 * @param mode            ranking or relative scores
 * @param maxAttempts     judge calls per group before it is dropped (the first call included)
 * @param toolOutputChars tool outputs longer than this are shortened in the prompt
 * @param maxTokens       reply budget for the judge
 * @param shuffle         show the group in a shuffled order (seeded by its rollout ids) against position bias
 */
public record JudgeSettings(JudgeMode mode, int maxAttempts, int toolOutputChars, int maxTokens, boolean shuffle) {
    public JudgeSettings {
        if (maxAttempts < 1) throw new IllegalArgumentException("max attempts must be >= 1: " + maxAttempts);
        if (toolOutputChars < 20) throw new IllegalArgumentException("tool output chars must be >= 20: " + toolOutputChars);
        if (maxTokens < 16) throw new IllegalArgumentException("max tokens must be >= 16: " + maxTokens);
    }

    public static JudgeSettings defaults(JudgeMode mode) {
        return new JudgeSettings(mode, 3, 400, 1024, true);
    }

    public JudgeSettings withMaxAttempts(int n) {
        return new JudgeSettings(mode, n, toolOutputChars, maxTokens, shuffle);
    }

    public JudgeSettings withShuffle(boolean s) {
        return new JudgeSettings(mode, maxAttempts, toolOutputChars, maxTokens, s);
    }
}
