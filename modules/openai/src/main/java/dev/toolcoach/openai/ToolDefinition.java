package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Objects;

/** One entry of a request's {@code tools} list; OpenAI only defines the {@code function} type. */
public record ToolDefinition(String type, FunctionDefinition function) {
    public ToolDefinition {
        type = type == null ? "function" : type;
        Objects.requireNonNull(function, "function");
    }

    public static ToolDefinition function(String name, String description, JsonNode parameters) {
        return new ToolDefinition("function", new FunctionDefinition(name, description, parameters));
    }
}
