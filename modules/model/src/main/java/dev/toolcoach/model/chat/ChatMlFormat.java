package dev.toolcoach.model.chat;

import dev.toolcoach.trace.Message;
import java.util.List;

/** Qwen's ChatML: {@code <|im_start|>role\ncontent<|im_end|>\n} per message. */
public final class ChatMlFormat implements ChatFormat {
    public static final String IM_START = "<|im_start|>";
    public static final String IM_END = "<|im_end|>";
    public static final String END_OF_TEXT = "<|endoftext|>";

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
