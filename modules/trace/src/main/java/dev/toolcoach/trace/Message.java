package dev.toolcoach.trace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Objects;

/**
 * One chat message in OpenAI's layout: role ({@code system}, {@code user}, {@code assistant}, {@code tool}),
 * content, and for templates that render them natively the assistant's structured tool calls and the name of
 * the tool a {@code tool} message answers.
 *
 * @param toolCalls the calls of an assistant message (empty otherwise), arguments as objects
 * @param name      the tool whose result a {@code tool} message carries, or null
 */
@JsonPropertyOrder({"role", "content", "tool_calls", "name"})
public record Message(String role, String content,
                      @JsonProperty("tool_calls") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ToolCall> toolCalls,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String name) {
    public Message {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    }

    public Message(String role, String content) {
        this(role, content, List.of(), null);
    }

    public static Message system(String content) { return new Message("system", content); }
    public static Message user(String content) { return new Message("user", content); }
    public static Message assistant(String content) { return new Message("assistant", content); }
    public static Message tool(String content) { return new Message("tool", content); }

    /** An assistant turn that calls tools, as a template that renders tool calls natively receives it. */
    public static Message assistantCalls(String content, List<ToolCall> calls) {
        return new Message("assistant", content, calls, null);
    }

    /** A tool's result, named by the tool it answers. */
    public static Message toolResult(String toolName, String content) {
        return new Message("tool", content, List.of(), toolName);
    }
}
