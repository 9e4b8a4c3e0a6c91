package dev.toolcoach.rewards.judge;

import java.util.Locale;

/** What the judge is asked for. */
public enum JudgeMode {
    /** A full ranking, best first; rewards are linear in rank (best 1, worst 0). */
    RANKING,
    /** RULER-style: a score in [0, 1] per attempt, relative to the others; rewards are the scores. */
    RELATIVE_SCORES;

    /** {@code ranking} (ToolBrain) or {@code relative} (RULER), any case. */
    public static JudgeMode parse(String mode) {
        String m = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        return switch (m) {
            case "ranking" -> RANKING;
            case "relative", "relative-scores", "ruler" -> RELATIVE_SCORES;
            default -> throw new IllegalArgumentException("unknown judge mode '" + mode + "'; valid: ranking, relative");
        };
    }
}
