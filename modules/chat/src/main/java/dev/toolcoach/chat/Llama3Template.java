package dev.toolcoach.chat;

import dev.toolcoach.trace.Message;

/** Llama 3's header format: {@code <|start_header_id|>role<|end_header_id|>\n\ncontent<|eot_id|>}. */
public final class Llama3Template implements ChatTemplate {
    @Override
    public String render(TemplateInput request) {
        StringBuilder sb = new StringBuilder("<|begin_of_text|>");
        for (Message m : request.messages()) {
            header(sb, m.role()).append(m.content().strip()).append("<|eot_id|>");
        }
        if (request.addGenerationPrompt()) {
            header(sb, "assistant");
        }
        return sb.toString();
    }

    private static StringBuilder header(StringBuilder sb, String role) {
        return sb.append("<|start_header_id|>").append(role).append("<|end_header_id|>\n\n");
    }
}
