package dev.toolcoach.chat;

import dev.toolcoach.trace.Message;
import java.util.List;

/**
 * A model family's whole-conversation template: renders a conversation into the prompt text the model was
 * trained on. The agent's incremental {@code agent.ChatFormat} is cut out of one of these by the policy.
 */
public interface ChatTemplate {
    /** The prompt text for a conversation, its offered tools and the template's extra variables. */
    String render(TemplateInput request);

    /** @param addGenerationPrompt end with the opening of an assistant turn, ready for the model to continue */
    default String render(List<Message> messages, boolean addGenerationPrompt) {
        return render(TemplateInput.of(messages, addGenerationPrompt));
    }
}
