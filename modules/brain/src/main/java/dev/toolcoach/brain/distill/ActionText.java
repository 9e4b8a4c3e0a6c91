package dev.toolcoach.brain.distill;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ActionTag;
import dev.toolcoach.agent.ToolCallCodec;
import dev.toolcoach.openai.ChatMessage;
import dev.toolcoach.openai.FunctionCall;

import java.util.ArrayList;
import java.util.List;

/**
 * A teacher's chat reply as the Tool-N1 action text the student learns to write, by the Tool-N1 codec:
 * reasoning as thinking, native tool calls as a call list, plain content as the answer.
 * Content that already is action text (a teacher following the system prompt) is kept as written.
 */
final class ActionText {

    private static final ToolCallCodec CODEC = ActionFormat.TOOL_N1.codec();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ActionText() {
    }

    static String of(ChatMessage reply) {
        String content = reply.content() == null ? "" : reply.content().strip();
        if (reply.calls().isEmpty()
                && (content.contains(ActionTag.ANSWER.open()) || content.contains(ActionTag.TOOL_CALL.open()))) {
            return content;
        }
        String reasoning = reply.reasoningContent() == null ? "" : reply.reasoningContent().strip();
        String thinking = CODEC.writeThinking(reasoning);
        if (reply.calls().isEmpty()) return thinking + CODEC.writeAnswer(content);
        List<ToolCallCodec.WrittenCall> calls = new ArrayList<>();
        for (var call : reply.calls()) {
            FunctionCall f = call.function();
            calls.add(new ToolCallCodec.WrittenCall(f == null ? "" : f.name(), arguments(f == null ? null : f.arguments())));
        }
        return thinking + CODEC.writeCalls(calls, false);
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
