package dev.toolcoach.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.model.tokenizer.TextTokenizer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The special-token strings of a model's tokenizer and their ids. */
final class SpecialTokens {

    private SpecialTokens() {
    }

    /**
     * An HF tokenizer's {@code added_tokens} marked special; a llama2.c tokenizer has none that text
     * can spell (its BOS/EOS are never produced by encoding).
     */
    static Map<String, Integer> of(TextTokenizer tokenizer) {
        return tokenizer instanceof HfTokenizer hf ? fromTokenizerJson(hf.file()) : Map.of();
    }

    static Map<String, Integer> fromTokenizerJson(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new ModelLoadException(file, "tokenizer is not valid JSON (" + e.getMessage() + ")", e);
        }
        Map<String, Integer> specials = new LinkedHashMap<>();
        for (JsonNode added : root.path("added_tokens")) {
            if (added.path("special").asBoolean(false)) {
                specials.put(added.path("content").asText(), added.path("id").asInt());
            }
        }
        return Map.copyOf(specials);
    }
}
