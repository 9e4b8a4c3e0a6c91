package dev.toolcoach.tools.spi;

/** The arguments passed schema validation but still cannot be used (e.g. an out-of-range integer). */
public class InvalidArgumentsException extends ToolException {
    public InvalidArgumentsException(String message) {
        super(message);
    }
}
