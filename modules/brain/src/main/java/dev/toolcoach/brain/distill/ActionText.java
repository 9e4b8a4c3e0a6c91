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
 * A teacher's chat reply as the action text the student learns to write, by the codec of the student's action
 * format: reasoning as thinking (Tool-N1 replies always open with a think block), the teacher's tool calls as
 * the format writes calls, plain content as the answer. Content that already is action text of the format (a teacher
 * following the system prompt: an answer block, or a call block the format's codec reads, a code action's program
 * included, even one cut off) is kept as written, so the student's loop runs it.
 */
final class ActionText {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ActionText() {
    }

    static String of(ChatMessage reply, ActionFormat format) {
        ToolCallCodec codec = format.codec();
        String content = reply.content() == null ? "" : reply.content().strip();
        if (reply.calls().isEmpty() && isActionText(content, codec)) return content;
        String reasoning = reply.reasoningContent() == null ? "" : reply.reasoningContent().strip();
        boolean toolN1 = format == ActionFormat.TOOL_N1 || format == ActionFormat.TOOL_N1_COMPACT;
        String thinking = reasoning.isEmpty() && !toolN1 ? "" : codec.writeThinking(reasoning);
        if (reply.calls().isEmpty()) return thinking + codec.writeAnswer(content);
        List<ToolCallCodec.WrittenCall> calls = new ArrayList<>();
        for (var call : reply.calls()) {
            FunctionCall f = call.function();
            calls.add(new ToolCallCodec.WrittenCall(f == null ? "" : f.name(), arguments(f == null ? null : f.arguments())));
        }
        return thinking + codec.writeCalls(calls, false);
    }

    private static boolean isActionText(String content, ToolCallCodec codec) {
        if (content.contains(ActionTag.ANSWER.open()) || content.contains(ActionTag.TOOL_CALL.open())) return true;
        ToolCallCodec.CallReading calls = codec.readCalls(content);
        return !calls.blocks().isEmpty() || calls.cutOff();
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
