package dev.toolcoach.retrieval.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads which tools a model chose, accepting what models really write: a JSON list of names
 * (possibly inside prose or a code fence, or as a field of an object, or of {@code {"name": …}}
 * objects), else candidate names mentioned in free text. Names are matched exactly, then ignoring
 * case and a trailing {@code ()}; anything else is reported as unknown, never guessed.
 */
final class ReplyParser {

    private static final ObjectMapper JSON = new ObjectMapper();
    // A selector's free-form reply, not an action of the policy's format, so not read with agent.ToolCallCodec:
    // a closed thinking block is cut as a word break, and an unclosed one stays readable prose.
    private static final Pattern THINKING = Pattern.compile("<think>.*?</think>", Pattern.DOTALL);
    // quoted identifiers in prose that look like tool names (snake_case, dotted or camelCase)
    private static final Pattern QUOTED_IDENTIFIER = Pattern.compile("[`\"]([A-Za-z_][\\w.]*(?:[_.]|[a-z][A-Z])[\\w.]*)[`\"]");
    // a JSON value could start at any bracket; bound the attempts on long prose
    private static final int MAX_JSON_STARTS = 64;

    private final Map<String, String> exact = new HashMap<>();
    private final Map<String, String> folded = new HashMap<>();

    ReplyParser(Collection<String> candidateNames) {
        for (String name : candidateNames) {
            exact.put(name, name);
            folded.putIfAbsent(fold(name), name);
        }
    }

    ParsedReply parse(String reply) {
        String text = THINKING.matcher(reply == null ? "" : reply).replaceAll(" ");
        Optional<List<String>> listed = firstJsonList(text);
        if (listed.isPresent()) return resolve(listed.get(), ReplyForm.JSON_LIST);
        return fromFreeText(text);
    }

    private ParsedReply resolve(List<String> given, ReplyForm form) {
        Set<String> names = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (String g : given) {
            String name = match(g);
            if (name != null) names.add(name);
            else unknown.add(g);
        }
        return new ParsedReply(new ArrayList<>(names), unknown, form);
    }

    private String match(String given) {
        String trimmed = given.strip();
        if (trimmed.endsWith("()")) trimmed = trimmed.substring(0, trimmed.length() - 2);
        String hit = exact.get(trimmed);
        return hit != null ? hit : folded.get(fold(trimmed));
    }

    /** The entries of the first JSON list of names in the text (non-text entries kept as their JSON, to be reported). */
    private static Optional<List<String>> firstJsonList(String text) {
        int tried = 0;
        for (int i = 0; i < text.length() && tried < MAX_JSON_STARTS; i++) {
            char c = text.charAt(i);
            if (c != '[' && c != '{') continue;
            tried++;
            JsonNode value;
            try {
                value = JSON.readTree(text.substring(i));
            } catch (JsonProcessingException notJsonHere) {
                continue;
            }
            Optional<List<String>> names = namesIn(value);
            if (names.isPresent()) return names;
        }
        return Optional.empty();
    }

    private static Optional<List<String>> namesIn(JsonNode value) {
        if (value == null) return Optional.empty();
        if (value.isArray()) {
            List<String> names = new ArrayList<>();
            value.forEach(e -> names.add(e.isTextual() ? e.asText()
                    : e.path("name").isTextual() ? e.get("name").asText() : e.toString()));
            return Optional.of(names);
        }
        if (value.isObject()) {
            // e.g. {"tools": [...]} or {"relevant_tools": [...]}: the first list field
            for (JsonNode field : value) {
                if (field.isArray()) return namesIn(field);
            }
        }
        return Optional.empty();
    }

    /** Candidate names mentioned in prose, in order of first mention; quoted unknown identifiers are reported. */
    private ParsedReply fromFreeText(String text) {
        TreeMap<Integer, String> byPosition = new TreeMap<>();
        for (String name : exact.keySet()) {
            Matcher m = Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "(?![\\w.])").matcher(text);
            if (m.find()) byPosition.putIfAbsent(m.start(), name);
        }
        List<String> unknown = new ArrayList<>();
        Matcher quoted = QUOTED_IDENTIFIER.matcher(text);
        while (quoted.find()) {
            if (match(quoted.group(1)) == null) unknown.add(quoted.group(1));
        }
        ReplyForm form = byPosition.isEmpty() ? ReplyForm.NONE : ReplyForm.FREE_TEXT;
        return new ParsedReply(new ArrayList<>(byPosition.values()), unknown, form);
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
