package dev.toolcoach.tasks.calling;

import dev.toolcoach.agent.ActionFormat;
import dev.toolcoach.agent.ToolCallCodec;

/**
 * Tool-N1's binary reward: 1 when the output is well formed (a think block, when required, then
 * tool calls in the model's action format) AND its calls match the example's expected calls under
 * {@link CallChecker}; else 0.
 */
public final class CallMatchReward {

    private final CallChecker checker = new CallChecker();
    private final ToolCallCodec codec;
    private final boolean requireThinking;

    /**
     * @param format          the action format the model writes its calls in
     * @param requireThinking whether a {@code <think>…</think>} block before the calls is part of the format
     */
    public CallMatchReward(ActionFormat format, boolean requireThinking) {
        this.codec = format.codec();
        this.requireThinking = requireThinking;
    }

    /** The verdict on a model output, a FORMAT error when its calls cannot be read. */
    public CheckResult judge(CallingExample example, String output) {
        ToolCallText.Parsed parsed = ToolCallText.parse(output, codec);
        if (!parsed.ok()) return CheckResult.fail(CheckError.FORMAT, parsed.formatError());
        if (requireThinking && !parsed.thinking()) {
            return CheckResult.fail(CheckError.FORMAT, "no <think>…</think> block before the tool calls");
        }
        return checker.check(example, parsed.calls());
    }

    public double score(CallingExample example, String output) {
        return judge(example, output).isCorrect() ? 1.0 : 0.0;
    }
}
