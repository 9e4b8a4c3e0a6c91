package dev.toolcoach.trace.tooluse;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The context a tool call is judged in: TILE learns tool preferences per context, so the key must recur across
 * episodes of the same kind.
 *
 * <ul>
 *   <li>{@code task:NAME} when the task is known (training and evaluation jobs, or given to the extraction command);</li>
 *   <li>otherwise {@code query:HEX8}: the first 8 hex digits of SHA-256 over the query's features, which are its
 *       distinct lower-case words of three or more letters (digits, punctuation and anything else split words and are
 *       dropped), sorted and joined by single spaces. Queries that differ only in numbers, word order, case or
 *       punctuation share a context; a query with no such word is {@code query:none}.</li>
 * </ul>
 */
public final class ContextKey {
    private static final Pattern WORD = Pattern.compile("\\p{L}{3,}");

    private ContextKey() {
    }

    public static String task(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("task name must not be blank");
        return "task:" + name;
    }

    public static String ofQuery(String query) {
        String features = features(query == null ? "" : query);
        if (features.isEmpty()) return "query:none";
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(features.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder("query:");
            for (int i = 0; i < 4; i++) hex.append(String.format("%02x", digest[i]));
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The task key when {@code task} is given, else the query's hash key. */
    public static String of(String task, String query) {
        return task == null || task.isBlank() ? ofQuery(query) : task(task);
    }

    /** The query's features as hashed: distinct words of 3+ letters, lower-cased, sorted, space-joined. */
    static String features(String query) {
        TreeSet<String> words = new TreeSet<>();
        Matcher m = WORD.matcher(query.toLowerCase(Locale.ROOT));
        while (m.find()) words.add(m.group());
        return String.join(" ", words);
    }
}
