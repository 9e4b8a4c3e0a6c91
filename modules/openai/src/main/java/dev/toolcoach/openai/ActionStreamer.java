package dev.toolcoach.openai;

import dev.toolcoach.agent.ToolCallCodec;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns generated text arriving in pieces into streaming deltas: thinking and answer text are
 * streamed as they grow; tool calls (which are only known once their block closes) and plain text
 * outside any block come at the end. The deltas concatenated always equal the non-streaming reply.
 */
final class ActionStreamer {

    private final ActionMessages messages;
    private final ToolCallCodec codec;
    private final StringBuilder text = new StringBuilder();
    private String sentReasoning = "";
    private String sentContent = "";

    ActionStreamer(ActionMessages messages, ToolCallCodec codec) {
        this.messages = messages;
        this.codec = codec;
    }

    /** Deltas made visible by one more piece of text. */
    List<ChatDelta> accept(String piece) {
        text.append(piece);
        String all = text.toString();
        List<ChatDelta> out = new ArrayList<>(2);
        ToolCallCodec.TextSoFar soFar = codec.readSoFar(all);
        String reasoning = soFar.thinking();
        if (reasoning != null && reasoning.length() > sentReasoning.length()) {
            out.add(ChatDelta.reasoning(reasoning.substring(sentReasoning.length())));
            sentReasoning = reasoning;
        }
        String answer = soFar.answer();
        if (answer != null && answer.length() > sentContent.length()) {
            out.add(ChatDelta.content(answer.substring(sentContent.length())));
            sentContent = answer;
        }
        return out;
    }

    /** The last deltas once generation is over: what was held back, then the tool calls. */
    List<ChatDelta> finish(String callIdPrefix) {
        AssistantTurn turn = messages.readReply(text.toString());
        List<ChatDelta> out = new ArrayList<>(3);
        String rest = remainder(turn.reasoning(), sentReasoning);
        if (!rest.isEmpty()) out.add(ChatDelta.reasoning(rest));
        rest = remainder(turn.content(), sentContent);
        if (!rest.isEmpty()) out.add(ChatDelta.content(rest));
        if (!turn.calls().isEmpty()) {
            List<ToolCallDelta> calls = new ArrayList<>();
            for (int i = 0; i < turn.calls().size(); i++) {
                calls.add(new ToolCallDelta(i, callIdPrefix + i, "function", turn.calls().get(i)));
            }
            out.add(new ChatDelta(null, null, null, calls));
        }
        return out;
    }

    List<FunctionCall> calls() {
        return messages.readReply(text.toString()).calls();
    }

    private static String remainder(String full, String sent) {
        if (full == null) return "";
        // streamed text is always a prefix of the final block (see ActionTag.soFar)
        return full.startsWith(sent) ? full.substring(sent.length()) : "";
    }
}
