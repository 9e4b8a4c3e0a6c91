package dev.toolcoach.openai;

/**
 * The text a backend generated, in the action format, with token counts.
 *
 * @param truncated true when generation stopped at max_tokens rather than at end of turn
 */
public record BackendReply(String text, int promptTokens, int completionTokens, boolean truncated) {
    public BackendReply {
        text = text == null ? "" : text;
    }
}
