package dev.toolcoach.model.chat;

import dev.toolcoach.trace.Message;
import java.util.List;

/**
 * A model family's whole-conversation template: renders a conversation into the prompt text the model was
 * trained on. The agent's incremental {@code agent.ChatFormat} is cut out of one of these by the policy.
 */
public interface ChatTemplate {
    /** @param addGenerationPrompt end with the opening of an assistant turn, ready for the model to continue */
    String render(List<Message> messages, boolean addGenerationPrompt);
}
