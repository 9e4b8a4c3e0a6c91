package dev.toolcoach.lm;

/** Why a generation ended. */
public enum FinishReason {
    /** The model emitted a stop token (its end-of-turn token), which is the last id. */
    STOP_TOKEN,
    /** The decoded text reached a stop string. */
    STOP_STRING,
    /** The request's token limit was reached. */
    MAX_TOKENS,
    /** The model's context window is full. */
    CONTEXT_FULL;

    /** Cut off by a length limit rather than ended by the model (OpenAI's {@code "length"}). */
    public boolean cutOff() {
        return this == MAX_TOKENS || this == CONTEXT_FULL;
    }
}
