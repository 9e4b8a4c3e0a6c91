package dev.toolcoach.openai;

/** A request the server refuses, with the HTTP status and OpenAI error type to answer with. */
final class RejectedRequest extends RuntimeException {

    private final int status;
    private final String type;

    RejectedRequest(int status, String type, String message) {
        super(message);
        this.status = status;
        this.type = type;
    }

    static RejectedRequest invalid(String message) {
        return new RejectedRequest(400, "invalid_request_error", message);
    }

    int status() {
        return status;
    }

    String type() {
        return type;
    }
}
