package dev.toolcoach.tools.spi;

/**
 * A failure a tool reports on purpose (division by zero, no such message id, ...). Its message is
 * shown to the model as is, so it must say what was wrong in the model's terms.
 */
public class ToolException extends Exception {
    public ToolException(String message) {
        super(message);
    }

    public ToolException(String message, Throwable cause) {
        super(message, cause);
    }
}
