package dev.toolcoach.rewards.judge;

/** A judge reply that cannot be used as a ranking or as scores; the message says why. */
final class InvalidJudgement extends Exception {
    InvalidJudgement(String message) {
        super(message);
    }
}
