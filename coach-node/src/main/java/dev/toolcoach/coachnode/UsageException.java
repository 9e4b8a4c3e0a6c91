package dev.toolcoach.coachnode;

/** Bad command-line input: reported as one line and exit code 2, never as a stack trace. */
final class UsageException extends RuntimeException {
    UsageException(String message) {
        super(message);
    }
}
