package dev.toolcoach.openai;

import java.util.List;

/** One server-sent event of a streaming reply ({@code object = "chat.completion.chunk"}). */
public record ChatChunk(String id, String object, long created, String model, List<ChunkChoice> choices) {
    public ChatChunk {
        choices = choices == null ? List.of() : List.copyOf(choices);
    }
}
