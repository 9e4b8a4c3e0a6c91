package dev.toolcoach.openai;

import dev.toolcoach.trace.Message;

import java.util.List;

/**
 * What a backend generates from: the conversation in the backend's action format (assistant turns as the
 * model writes them; tool messages hold the raw tool output and the name of the tool, for the chat format to
 * carry back as the format says), the tools on offer, and sampling.
 *
 * @param jsonReply true when the client asked for a JSON reply (response_format)
 */
public record BackendRequest(List<Message> messages, List<ToolDefinition> tools, RequestedSampling sampling,
                             boolean jsonReply) {
    public BackendRequest {
        messages = List.copyOf(messages);
        tools = List.copyOf(tools);
    }
}
