package dev.toolcoach.openai;

/**
 * The function part of a tool call. As in OpenAI's API, {@code arguments} is a JSON object
 * serialised into a string (in a streaming delta it may be a fragment of one).
 */
public record FunctionCall(String name, String arguments) {
}
