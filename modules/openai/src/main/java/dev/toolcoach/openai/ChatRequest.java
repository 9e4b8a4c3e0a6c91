package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Objects;

/**
 * A chat-completions request. Unset (null) sampling fields take the server's defaults; the
 * {@code with…} methods return modified copies.
 */
public record ChatRequest(String model,
                          List<ChatMessage> messages,
                          List<ToolDefinition> tools,
                          Double temperature,
                          @JsonProperty("top_p") Double topP,
                          @JsonProperty("max_tokens") Integer maxTokens,
                          Long seed,
                          @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> stop,
                          @JsonProperty("response_format") ResponseFormat responseFormat,
                          Boolean stream) {
    public ChatRequest {
        Objects.requireNonNull(messages, "messages");
        messages = List.copyOf(messages);
        tools = tools == null || tools.isEmpty() ? null : List.copyOf(tools);
        stop = stop == null || stop.isEmpty() ? null : List.copyOf(stop);
    }

    public static ChatRequest of(List<ChatMessage> messages) {
        return new ChatRequest(null, messages, null, null, null, null, null, null, null, null);
    }

    public ChatRequest withModel(String m) {
        return new ChatRequest(m, messages, tools, temperature, topP, maxTokens, seed, stop, responseFormat, stream);
    }

    public ChatRequest withTools(List<ToolDefinition> t) {
        return new ChatRequest(model, messages, t, temperature, topP, maxTokens, seed, stop, responseFormat, stream);
    }

    public ChatRequest withTemperature(double t) {
        return new ChatRequest(model, messages, tools, t, topP, maxTokens, seed, stop, responseFormat, stream);
    }

    public ChatRequest withMaxTokens(int n) {
        return new ChatRequest(model, messages, tools, temperature, topP, n, seed, stop, responseFormat, stream);
    }

    public ChatRequest withSeed(long s) {
        return new ChatRequest(model, messages, tools, temperature, topP, maxTokens, s, stop, responseFormat, stream);
    }

    public ChatRequest withResponseFormat(ResponseFormat f) {
        return new ChatRequest(model, messages, tools, temperature, topP, maxTokens, seed, stop, f, stream);
    }

    public ChatRequest withStream(boolean s) {
        return new ChatRequest(model, messages, tools, temperature, topP, maxTokens, seed, stop, responseFormat, s);
    }

    /** The tool list, never null. */
    public List<ToolDefinition> toolList() {
        return tools == null ? List.of() : tools;
    }

    public boolean streaming() {
        return Boolean.TRUE.equals(stream);
    }
}
