package dev.toolcoach.brain.zerolearn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.trace.ToolCall;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads the queries out of one generation reply; entries that are not usable are counted, not thrown. */
final class QueryReply {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The well-formed queries of a reply, in order, and how many entries were malformed. */
    record Parsed(List<GeneratedQuery> queries, int malformedEntries) {
    }

    private QueryReply() {
    }

    /** Empty when the reply has no JSON object with a {@code queries} list at all. */
    static Optional<Parsed> read(String reply) {
        Optional<JsonNode> root = JsonReply.object(reply);
        if (root.isEmpty() || !root.get().path("queries").isArray()) return Optional.empty();
        List<GeneratedQuery> queries = new ArrayList<>();
        int malformed = 0;
        for (JsonNode entry : root.get().get("queries")) {
            Optional<GeneratedQuery> q = entry(entry);
            if (q.isPresent()) queries.add(q.get());
            else malformed++;
        }
        return Optional.of(new Parsed(queries, malformed));
    }

    private static Optional<GeneratedQuery> entry(JsonNode e) {
        if (!e.isObject() || !e.path("query").isTextual() || e.get("query").asText().isBlank()) return Optional.empty();
        JsonNode calls = e.path("tool_calls");
        if (!calls.isMissingNode() && !calls.isNull() && !calls.isArray()) return Optional.empty();
        List<ToolCall> parsed = new ArrayList<>();
        for (JsonNode c : calls.isArray() ? calls : MAPPER.createArrayNode()) {
            JsonNode args = c.path("arguments");
            if (!c.path("name").isTextual() || !(args.isObject() || args.isMissingNode() || args.isNull())) {
                return Optional.empty();
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = args.isObject() ? MAPPER.convertValue(args, LinkedHashMap.class) : Map.of();
            parsed.add(new ToolCall(c.get("name").asText(), arguments));
        }
        JsonNode gold = e.path("gold_answer");
        String goldAnswer = gold.isNull() || gold.isMissingNode() || gold.asText().isBlank()
                || gold.asText().equalsIgnoreCase("null") ? null : gold.isValueNode() ? gold.asText() : gold.toString();
        return Optional.of(new GeneratedQuery(e.get("query").asText().strip(), goldAnswer, parsed));
    }
}
