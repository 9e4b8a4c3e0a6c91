package dev.toolcoach.openai;

import java.util.List;

/** A non-streaming chat-completions reply ({@code object = "chat.completion"}). */
public record ChatResponse(String id, String object, long created, String model, List<Choice> choices, Usage usage) {
    public ChatResponse {
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    /** The first choice's message; callers reach here only after the client checked there is one. */
    public ChatMessage message() {
        return choices.get(0).message();
    }

    /** The first choice's text content, or "" when it only calls tools. */
    public String text() {
        String content = message().content();
        return content == null ? "" : content;
    }
}
