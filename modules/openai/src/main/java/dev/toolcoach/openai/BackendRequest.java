package dev.toolcoach.openai;

import dev.toolcoach.trace.Message;

import java.util.List;

/**
 * What a backend generates from: the conversation in the action format (assistant turns carry
 * {@code <think>}, {@code <tool_call>} and {@code <answer>} blocks; tool messages hold the raw tool
 * output for the chat format to wrap in {@code <tool_response>}), the tools on offer, and sampling.
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
