package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One alternative reply; {@code finishReason} is stop, length or tool_calls. */
public record Choice(int index, ChatMessage message, @JsonProperty("finish_reason") String finishReason) {
}
