package dev.toolcoach.tasks;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolCallCodec;
import dev.toolcoach.trace.ToolCall;

import java.util.List;
import java.util.Objects;

/**
 * One ideal assistant turn: a thought, then either tool calls or the final answer.
 *
 * @param thought what the turn reasons (goes inside {@code <think>})
 * @param calls   the calls to make, empty on the answer turn
 * @param answer  the final answer, null on a call turn
 */
public record OracleStep(String thought, List<ToolCall> calls, String answer) {

    public OracleStep {
        Objects.requireNonNull(thought, "thought");
        calls = List.copyOf(calls);
        if (calls.isEmpty() == (answer == null)) {
            throw new IllegalArgumentException("an oracle step either calls tools or answers, not both or neither");
        }
    }

    public static OracleStep call(String thought, ToolCall... calls) {
        return new OracleStep(thought, List.of(calls), null);
    }

    public static OracleStep answer(String thought, String answer) {
        return new OracleStep(thought, List.of(), answer);
    }

    /** The turn as model text in {@code format}. */
    public String completion(ActionFormat format) {
        ToolCallCodec codec = format.codec();
        String think = codec.writeThinking(thought);
        return think + (answer == null ? codec.writeCalls(calls) : codec.writeAnswer(answer));
    }
}
