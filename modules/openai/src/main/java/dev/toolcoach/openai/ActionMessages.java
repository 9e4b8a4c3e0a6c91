package dev.toolcoach.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ActionTag;
import dev.toolcoach.agent.ToolCallCodec;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.UntrustedJson;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps between OpenAI chat messages and the action text of the model's format, through the format's codec:
 * earlier assistant turns are written as the model would have written them (Tool-N1's {@code <think>},
 * {@code <tool_call>[...]</tool_call>} and {@code <answer>}; Hermes' call blocks; Llama 3's JSON call), and a
 * generated turn is read back into content, reasoning and tool calls. Tool messages carry the name of the tool
 * they answer (from the assistant call their {@code tool_call_id} names), for templates that render results in
 * their own tool role.
 *
 * <p>Replies are read leniently where the agent reads strictly: the server must always answer,
 * so text that is not a valid action is passed through as plain content rather than rejected.
 */
final class ActionMessages {

    private final ToolCallCodec codec;
    private final ObjectMapper mapper = OpenAiJson.mapper();

    ActionMessages(ActionFormat format) {
        this.codec = format.codec();
    }

    /** The conversation as the backend sees it; a malformed message is rejected naming its index. */
    List<Message> toActionMessages(List<ChatMessage> messages) {
        List<Message> out = new ArrayList<>(messages.size());
        Map<String, String> toolByCallId = new HashMap<>();
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            String content = m.content() == null ? "" : m.content();
            m.calls().forEach(c -> {
                if (c.id() != null && c.function() != null) toolByCallId.put(c.id(), c.function().name());
            });
            switch (m.role()) {
                case "system", "user" -> out.add(new Message(m.role(), content));
                case "tool" -> out.add(Message.toolResult(m.name() != null ? m.name() : toolByCallId.get(m.toolCallId()), content));
                case "assistant" -> out.add(Message.assistant(assistantText(m, i)));
                default -> throw RejectedRequest.invalid("messages[" + i + "].role is not one of system, user, assistant, tool");
            }
        }
        return out;
    }

    private String assistantText(ChatMessage m, int index) {
        StringBuilder text = new StringBuilder();
        if (m.reasoningContent() != null && !m.reasoningContent().isBlank()) {
            text.append(codec.writeThinking(m.reasoningContent().strip()));
        }
        String content = m.content() == null ? "" : m.content().strip();
        if (m.calls().isEmpty()) {
            // a prior answer comes back from clients as bare text; restore the block the model wrote
            text.append(content.contains(ActionTag.ANSWER.open()) ? content : codec.writeAnswer(content));
            return text.toString();
        }
        List<ToolCallCodec.WrittenCall> calls = new ArrayList<>();
        for (int c = 0; c < m.calls().size(); c++) {
            FunctionCall f = m.calls().get(c).function();
            String where = "messages[" + index + "].tool_calls[" + c + "].function";
            if (f == null || f.name() == null) throw RejectedRequest.invalid(where + " has no name");
            calls.add(new ToolCallCodec.WrittenCall(f.name(), argumentsObject(f.arguments(), where)));
        }
        return text.append(codec.writeCalls(calls, true)).toString();
    }

    private JsonNode argumentsObject(String arguments, String where) {
        if (arguments == null || arguments.isBlank()) return mapper.createObjectNode();
        try {
            // a JSON string inside the request: the body's own depth limit did not see inside it
            JsonNode node = UntrustedJson.readTree(mapper, arguments, UntrustedJson.MAX_DEPTH);
            if (!node.isObject()) {
                throw RejectedRequest.invalid(where + ".arguments is not a JSON object but a JSON "
                        + node.getNodeType().name().toLowerCase(Locale.ROOT));
            }
            return node;
        } catch (UntrustedJson.TooDeep e) {
            throw RejectedRequest.invalid(where + ".arguments is nested deeper than " + UntrustedJson.MAX_DEPTH + " levels");
        } catch (JsonProcessingException e) {
            throw RejectedRequest.invalid(where + ".arguments is " + UntrustedJson.reason(e));
        }
    }

    /**
     * Reads a generated turn: its tool calls if their blocks parse (a block cut off by the token limit counts
     * up to where it stops, as it does while streaming), with the format's content beside them (Hermes' text
     * before its calls); without calls, the answer, or the whole text outside thinking when that holds more
     * than the answer streamed so far (a malformed call is passed through as text, never dropped).
     */
    AssistantTurn readReply(String text) {
        ToolCallCodec.TextSoFar soFar = codec.readSoFar(text);
        List<FunctionCall> calls = toolCalls(text);
        String content;
        if (!calls.isEmpty()) {
            content = soFar.answer();
        } else {
            String outside = codec.textOutsideThinking(text);
            content = soFar.answer() == null || outside.startsWith(soFar.answer()) ? outside : soFar.answer();
        }
        return new AssistantTurn(soFar.thinking(), content, calls);
    }

    /** Every call in every closed call block, or none when any block is not valid call JSON. */
    private List<FunctionCall> toolCalls(String text) {
        ToolCallCodec.CallReading reading = codec.readCalls(text);
        // a last block cut off by the token limit is not read; the blocks before it still count
        if (reading.error() != null && !reading.cutOff()) return List.of();
        List<FunctionCall> calls = new ArrayList<>();
        try {
            for (List<JsonNode> block : reading.blocks()) {
                for (JsonNode call : block) {
                    FunctionCall parsed = functionCall(call);
                    if (parsed == null) return List.of();
                    calls.add(parsed);
                }
            }
        } catch (JsonProcessingException malformed) {
            return List.of();
        }
        return calls;
    }

    /** A call as OpenAI sends it; arguments given as a JSON string (as OpenAI itself writes them) are read too. */
    private FunctionCall functionCall(JsonNode call) throws JsonProcessingException {
        if (call == null || !call.isObject() || !call.path("name").isTextual()) return null;
        JsonNode args = call.path("arguments");
        if (args.isTextual()) args = UntrustedJson.readTree(mapper, args.asText(), UntrustedJson.MAX_DEPTH);
        if (args.isMissingNode() || args.isNull()) args = mapper.createObjectNode();
        if (!args.isObject()) return null;
        return new FunctionCall(call.get("name").asText(), mapper.writeValueAsString(args));
    }
}
