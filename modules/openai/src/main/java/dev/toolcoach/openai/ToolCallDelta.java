package dev.toolcoach.openai;

/** A piece of a tool call in a streamed chunk; pieces with the same index belong to one call. */
public record ToolCallDelta(int index, String id, String type, FunctionCall function) {
}
