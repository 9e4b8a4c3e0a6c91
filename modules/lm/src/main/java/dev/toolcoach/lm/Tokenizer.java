package dev.toolcoach.lm;

import java.util.Map;

/** Text ↔ token ids for the model the agent talks to. */
public interface Tokenizer {

    /**
     * Encodes text without adding any token of its own (no implicit BOS). Special-token strings
     * such as {@code <|im_start|>} occurring in the text are encoded to their special ids, so a
     * rendered chat prompt tokenises exactly as the model expects.
     */
    int[] encode(String text);

    /** Decodes ids back to text, special tokens written as their strings. */
    String decode(int[] ids);

    /** Special-token strings and their ids. */
    Map<String, Integer> specialTokens();
}
