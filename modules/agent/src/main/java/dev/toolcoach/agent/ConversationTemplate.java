package dev.toolcoach.agent;

import dev.toolcoach.trace.Message;

import java.util.List;

/**
 * A model's own whole-conversation chat template, as the agent uses it for a native action format: the
 * template offers the tools, renders the assistant's calls and carries tool results in its own tool role.
 */
public interface ConversationTemplate {

    /**
     * @param messages            the conversation: assistant turns carry their parsed {@code tool_calls}, tool results
     *                            are {@code tool} messages naming their tool
     * @param tools               the tools offered, passed to the template as OpenAI function schemas
     * @param addGenerationPrompt end with the opening of an assistant turn
     */
    String render(List<Message> messages, List<ToolSpec> tools, boolean addGenerationPrompt);
}
