package dev.toolcoach.agent;

/**
 * A native format with no thinking block and a plain-text answer (Llama 3 JSON, Phi-4-mini's functools): what
 * such codecs write and read outside their calls is the same.
 */
interface UnthinkingCodec extends ToolCallCodec {

    @Override
    default String textOutsideThinking(String text) {
        return text == null ? "" : text.strip();
    }

    /** The format has no thinking: nothing is written. */
    @Override
    default String writeThinking(String thinking) {
        return "";
    }

    @Override
    default String writeAnswer(String answer) {
        return answer;
    }
}
