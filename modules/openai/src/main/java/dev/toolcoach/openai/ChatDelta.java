package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/** What one streamed chunk adds to the assistant message. */
public record ChatDelta(String role,
                        String content,
                        @JsonProperty("reasoning_content") String reasoningContent,
                        @JsonProperty("tool_calls") List<ToolCallDelta> toolCalls) {

    public static ChatDelta content(String text) {
        return new ChatDelta(null, text, null, null);
    }

    public static ChatDelta reasoning(String text) {
        return new ChatDelta(null, null, text, null);
    }
}
