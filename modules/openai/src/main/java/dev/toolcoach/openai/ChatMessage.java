package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Objects;

/**
 * One message of a chat-completions conversation.
 *
 * @param role             system, user, assistant or tool
 * @param content          the text; null for an assistant message that only calls tools
 * @param toolCalls        calls made by an assistant message, else null
 * @param toolCallId       for a tool message, the id of the call it answers
 * @param name             optional participant or tool name
 * @param reasoningContent the model's thinking, kept apart from the answer (vLLM's field name)
 */
public record ChatMessage(String role,
                          String content,
                          @JsonProperty("tool_calls") List<ChatToolCall> toolCalls,
                          @JsonProperty("tool_call_id") String toolCallId,
                          String name,
                          @JsonProperty("reasoning_content") String reasoningContent) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        toolCalls = toolCalls == null || toolCalls.isEmpty() ? null : List.copyOf(toolCalls);
    }

    public static ChatMessage system(String content) {
        return new ChatMessage("system", content, null, null, null, null);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage("user", content, null, null, null, null);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage("assistant", content, null, null, null, null);
    }

    public static ChatMessage toolReply(String toolCallId, String content) {
        return new ChatMessage("tool", content, null, toolCallId, null, null);
    }

    /** The tool calls, never null. */
    public List<ChatToolCall> calls() {
        return toolCalls == null ? List.of() : toolCalls;
    }
}
