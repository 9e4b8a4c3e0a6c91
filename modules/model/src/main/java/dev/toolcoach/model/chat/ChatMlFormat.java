package dev.toolcoach.model.chat;

import dev.toolcoach.trace.Message;
import java.util.List;

/** Qwen's ChatML: {@code <|im_start|>role\ncontent<|im_end|>\n} per message. */
public final class ChatMlFormat implements ChatFormat {
    @Override
    public String render(List<Message> messages, boolean addGenerationPrompt) {
        StringBuilder sb = new StringBuilder();
        for (Message m : messages) {
            sb.append("<|im_start|>").append(m.role()).append('\n').append(m.content()).append("<|im_end|>\n");
        }
        if (addGenerationPrompt) {
            sb.append("<|im_start|>assistant\n");
        }
        return sb.toString();
    }
}
