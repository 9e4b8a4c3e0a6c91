package dev.toolcoach.agent.replay;

import static dev.toolcoach.lm.ChatMl.IM_END;
import static dev.toolcoach.lm.ChatMl.IM_START;

import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.trace.Message;

import java.util.List;
import java.util.stream.Collectors;

/**
 * ChatML as Qwen uses it: {@code <|im_start|>role\ncontent<|im_end|>\n}; tool outputs go back in a
 * user-side message of {@code <tool_response>} blocks, one per call.
 */
public final class ChatMlFormat implements ChatFormat {

    @Override
    public String renderMessage(Message message) {
        String role = message.role().equals("tool") ? "user" : message.role();
        return IM_START + role + "\n" + message.content() + IM_END + "\n";
    }

    @Override
    public String generationPrefix() {
        return IM_START + "assistant\n";
    }

    @Override
    public String closeReply(boolean endedByStopToken) {
        return endedByStopToken ? "\n" : IM_END + "\n";
    }

    @Override
    public Message toolResponses(List<String> outputs) {
        return Message.tool(outputs.stream()
                .map(o -> "<tool_response>\n" + o + "\n</tool_response>")
                .collect(Collectors.joining("\n")));
    }
}
