package dev.toolcoach.lm;

/** The ChatML markers (Qwen's chat layout): {@code <|im_start|>role\ncontent<|im_end|>\n} per message. */
public final class ChatMl {
    public static final String IM_START = "<|im_start|>";
    public static final String IM_END = "<|im_end|>";
    public static final String END_OF_TEXT = "<|endoftext|>";

    private ChatMl() {
    }
}
