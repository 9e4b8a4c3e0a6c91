package dev.toolcoach.model.chat;

import static dev.toolcoach.lm.ChatMl.IM_END;
import static dev.toolcoach.lm.ChatMl.IM_START;

import dev.toolcoach.trace.Message;
import java.util.List;

/** Qwen's ChatML: {@code <|im_start|>role\ncontent<|im_end|>\n} per message. */
public final class ChatMlTemplate implements ChatTemplate {
    @Override
    public String render(List<Message> messages, boolean addGenerationPrompt) {
        StringBuilder sb = new StringBuilder();
        for (Message m : messages) {
            sb.append(IM_START).append(m.role()).append('\n').append(m.content()).append(IM_END).append('\n');
        }
        if (addGenerationPrompt) {
            sb.append(IM_START).append("assistant\n");
        }
        return sb.toString();
    }
}
