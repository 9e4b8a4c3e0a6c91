package dev.toolcoach.rewards.judge;

/** What the judge is asked for. */
public enum JudgeMode {
    /** A full ranking, best first; rewards are linear in rank (best 1, worst 0). */
    RANKING,
    /** RULER-style: a score in [0, 1] per attempt, relative to the others; rewards are the scores. */
    RELATIVE_SCORES
}
