package dev.toolcoach.openai;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Objects;

/** A callable function as OpenAI describes it: name, description and a JSON Schema of its parameters. */
public record FunctionDefinition(String name, String description, JsonNode parameters) {
    public FunctionDefinition {
        Objects.requireNonNull(name, "name");
    }
}
