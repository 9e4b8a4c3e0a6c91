package dev.toolcoach.brain.run;

/** A training job could not go on; the message says why. */
public final class TrainingFailedException extends RuntimeException {
    public TrainingFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
