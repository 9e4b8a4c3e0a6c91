package dev.toolcoach.brain.distill;

/** The teacher cannot be reached or refuses us; distillation stops and caches nothing. */
public final class TeacherUnavailableException extends RuntimeException {
    public TeacherUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
