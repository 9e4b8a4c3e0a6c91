package dev.toolcoach.openai;

import com.fasterxml.jackson.annotation.JsonProperty;

/** One choice's part of a streamed chunk. */
public record ChunkChoice(int index, ChatDelta delta, @JsonProperty("finish_reason") String finishReason) {
}
