package dev.toolcoach.model.chat;

import dev.toolcoach.trace.Message;
import java.util.List;

/** Renders a conversation into the prompt text a model was trained on. */
public interface ChatFormat {
    /** @param addGenerationPrompt end with the opening of an assistant turn, ready for the model to continue */
    String render(List<Message> messages, boolean addGenerationPrompt);
}
