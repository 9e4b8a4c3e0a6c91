package dev.toolcoach.openai;

/** A chat-completions call that failed, with the kind of failure so callers can react to it. */
public final class OpenAiException extends RuntimeException {

    public enum Kind {
        /** No connection could be made (refused, unknown host, connect timeout). */
        UNREACHABLE,
        /** The connection broke while talking. */
        CONNECTION_LOST,
        /** 401 or 403: the API key is missing or wrong. */
        UNAUTHORIZED,
        /** No reply within the request timeout. */
        TIMEOUT,
        /** Still 429 after every retry. */
        RATE_LIMITED,
        /** Still 5xx after every retry. */
        SERVER_ERROR,
        /** Any other 4xx: the server refused the request as written. */
        REQUEST_REJECTED,
        /** A 400 with code {@code context_length_exceeded}: this conversation no longer fits the model (others may). */
        CONTEXT_LENGTH_EXCEEDED,
        /** A reply that is not the expected JSON. */
        BAD_RESPONSE,
        /** A well-formed reply without any choice. */
        NO_CHOICES,
        /** The server reported an error inside a stream. */
        STREAM_ERROR,
        /** The calling thread was interrupted. */
        INTERRUPTED
    }

    private final Kind kind;
    private final int status;

    public OpenAiException(Kind kind, int status, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.status = status;
    }

    public OpenAiException(Kind kind, String message) {
        this(kind, 0, message, null);
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when there was no HTTP reply. */
    public int status() {
        return status;
    }
}
