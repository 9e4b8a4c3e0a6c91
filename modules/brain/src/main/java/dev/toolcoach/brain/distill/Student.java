package dev.toolcoach.brain.distill;

import dev.toolcoach.agent.ChatFormat;
import dev.toolcoach.lm.Tokenizer;

import java.util.Objects;

/**
 * The model being taught, as far as collecting its training traces needs it: teacher replies are
 * re-tokenised with the student's tokenizer and laid out in its chat format, so the traces hold
 * exactly the ids the student trains on.
 *
 * @param id          names the student's tokenizer and chat format in the trace cache key, since the
 *                    cached traces hold its token ids
 * @param stopTokenId the student's end-of-turn id, appended to every teacher reply
 */
public record Student(String id, Tokenizer tokenizer, ChatFormat chat, int stopTokenId) {
    public Student {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(chat, "chat");
    }
}
