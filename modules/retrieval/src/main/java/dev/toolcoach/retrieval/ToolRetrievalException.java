package dev.toolcoach.retrieval;

/** A retriever could not answer a query (the reason is in the message). */
public class ToolRetrievalException extends RuntimeException {
    public ToolRetrievalException(String message) {
        super(message);
    }

    public ToolRetrievalException(String message, Throwable cause) {
        super(message, cause);
    }
}
