package dev.toolcoach.chat;

import static dev.toolcoach.lm.ChatMl.IM_END;
import static dev.toolcoach.lm.ChatMl.IM_START;

import dev.toolcoach.trace.Message;

/** Qwen's ChatML: {@code <|im_start|>role\ncontent<|im_end|>\n} per message. */
public final class ChatMlTemplate implements ChatTemplate {
    @Override
    public String render(TemplateInput request) {
        StringBuilder sb = new StringBuilder();
        for (Message m : request.messages()) {
            sb.append(IM_START).append(m.role()).append('\n').append(m.content()).append(IM_END).append('\n');
        }
        if (request.addGenerationPrompt()) {
            sb.append(IM_START).append("assistant\n");
        }
        return sb.toString();
    }
}
