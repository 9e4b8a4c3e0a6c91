package dev.toolcoach.openai;

/** OpenAI's error body: {@code {"error": {"message", "type", "code"}}}. */
public record ApiError(Detail error) {

    /** OpenAI's code for a conversation longer than the model's context. */
    public static final String CONTEXT_LENGTH_EXCEEDED = "context_length_exceeded";

    public record Detail(String message, String type, String code) {
    }

    public static ApiError of(String message, String type, String code) {
        return new ApiError(new Detail(message, type, code));
    }
}
