package dev.toolcoach.tasks.calling;

import java.util.Objects;

/**
 * The verdict on a model's calls: correct, or the first error found and a message naming the
 * parameter and values involved.
 */
public record CheckResult(CheckError error, String message) {

    private static final CheckResult CORRECT = new CheckResult(null, "");

    public CheckResult {
        message = message == null ? "" : message;
    }

    public static CheckResult correct() {
        return CORRECT;
    }

    public static CheckResult fail(CheckError error, String message) {
        return new CheckResult(Objects.requireNonNull(error, "error"), message);
    }

    public boolean isCorrect() {
        return error == null;
    }

    @Override
    public String toString() {
        return isCorrect() ? "correct" : error + ": " + message;
    }
}
