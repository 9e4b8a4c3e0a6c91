package dev.toolcoach.tasks.datasets;

/** A dataset file that cannot be read at all (missing, unreadable, not the expected layout). */
public class DatasetException extends RuntimeException {
    public DatasetException(String message, Throwable cause) {
        super(message, cause);
    }

    public DatasetException(String message) {
        super(message);
    }
}
