package dev.toolcoach.model.generate;

/** Why a generation ended. */
public enum FinishReason {
    STOP_TOKEN, STOP_STRING, MAX_TOKENS, CONTEXT_FULL
}
