package dev.toolcoach.brain.zerolearn;

import dev.toolcoach.trace.ToolCall;

import java.util.List;
import java.util.Objects;

/**
 * One query the model proposed.
 *
 * @param query         the user query
 * @param goldAnswer    the answer the model expects, or null when it gave none
 * @param intendedCalls the tool calls the model says the query needs
 */
public record GeneratedQuery(String query, String goldAnswer, List<ToolCall> intendedCalls) {
    public GeneratedQuery {
        Objects.requireNonNull(query, "query");
        intendedCalls = List.copyOf(intendedCalls);
    }

    public int wordCount() {
        String s = query.strip();
        return s.isEmpty() ? 0 : s.split("\\s+").length;
    }

    /** The query lower-cased with punctuation and spacing folded: what "duplicate" means. */
    public String normalised() {
        return query.toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }
}
