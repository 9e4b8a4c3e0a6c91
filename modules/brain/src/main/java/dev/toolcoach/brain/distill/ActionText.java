package dev.toolcoach.brain.distill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.FunctionCall;

/**
 * A teacher's chat reply as the Tool-N1 action text the student learns to write: reasoning in
 * {@code <think>}, native tool calls as a {@code <tool_call>} list, plain content as the answer.
 * Content that already is action text (a teacher following the system prompt) is kept as written.
 */
final class ActionText {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ActionText() {
    }

    static String of(ChatMessage reply) {
        String content = reply.content() == null ? "" : reply.content().strip();
        if (reply.calls().isEmpty() && (content.contains("<answer>") || content.contains("<tool_call>"))) {
            return content;
        }
        StringBuilder text = new StringBuilder();
        String reasoning = reply.reasoningContent() == null ? "" : reply.reasoningContent().strip();
        text.append("<think>").append(reasoning).append("</think>\n");
        if (reply.calls().isEmpty()) return text.append("<answer>").append(content).append("</answer>").toString();
        ArrayNode calls = MAPPER.createArrayNode();
        for (var call : reply.calls()) {
            FunctionCall f = call.function();
            ObjectNode c = calls.addObject();
            c.put("name", f == null ? "" : f.name());
            c.set("arguments", arguments(f == null ? null : f.arguments()));
        }
        return text.append("<tool_call>").append(calls).append("</tool_call>").toString();
    }

    /** Arguments as an object; text that is not a JSON object is kept as a string so the parser reports it. */
    private static JsonNode arguments(String json) {
        if (json == null || json.isBlank()) return MAPPER.createObjectNode();
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            return MAPPER.getNodeFactory().textNode(json);
        }
    }
}
