package dev.toolcoach.lm;

/**
 * A generation request whose context the model cannot hold (with room for one new token): that request fails alone,
 * before an engine sees it. A server answers it as OpenAI does, 400 with the code {@code context_length_exceeded}.
 */
public final class ContextTooLong extends IllegalArgumentException {

    public ContextTooLong(int contextTokens, int contextLength) {
        super("the prompt is " + contextTokens + " tokens, and the model's context of " + contextLength
                + " leaves no room for a reply");
    }
}
