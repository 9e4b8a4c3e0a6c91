package dev.toolcoach.openai;

/** A tool call in an assistant message: an id the tool reply refers to, and the function call. */
public record ChatToolCall(String id, String type, FunctionCall function) {
    public ChatToolCall {
        type = type == null ? "function" : type;
    }
}
