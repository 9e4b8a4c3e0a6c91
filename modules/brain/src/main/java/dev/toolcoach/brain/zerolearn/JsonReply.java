package dev.toolcoach.brain.zerolearn;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Optional;

/**
 * Finds the JSON object in a model's reply. Models asked for JSON still wrap it in code fences or a
 * sentence, so the outermost {@code {...}} span is tried after the whole text.
 */
final class JsonReply {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReply() {
    }

    static Optional<JsonNode> object(String reply) {
        if (reply == null) return Optional.empty();
        Optional<JsonNode> whole = parse(reply.strip());
        if (whole.isPresent()) return whole;
        int start = reply.indexOf('{');
        int end = reply.lastIndexOf('}');
        return start >= 0 && end > start ? parse(reply.substring(start, end + 1)) : Optional.empty();
    }

    private static Optional<JsonNode> parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (JsonProcessingException notJson) {
            return Optional.empty();
        }
    }
}
