package dev.toolcoach.agent.adapt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.trace.UntrustedJson;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of tool preferences as JSON: the prior and each (context, tool)'s successes and failures.
 * <pre>{"prior": {"alpha": 1.0, "beta": 1.0}, "episodes": {"task:finance": 40},
 *  "contexts": {"task:finance": {"get_stock_price": {"successes": 12, "failures": 3, "last_used": 38}}}}</pre>
 * ({@code episodes} and {@code last_used}, this node's episode counts for the retirement flag, are optional.)
 * Written atomically (a crash leaves the old file or the new one). Read back against the tools that exist: an unknown
 * tool, a negative or non-integer count, or a file that is not such JSON is an error naming the file and the field.
 */
public final class PreferenceFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private PreferenceFile() {
    }

    public static void write(Path file, ToolPreferences preferences) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("prior").put("alpha", preferences.prior().alpha()).put("beta", preferences.prior().beta());
        ObjectNode episodes = root.putObject("episodes");
        ObjectNode contexts = root.putObject("contexts");
        preferences.byContext().forEach((context, tools) -> {
            episodes.put(context, preferences.episodes(context));
            ObjectNode c = contexts.putObject(context);
            tools.forEach((tool, e) -> c.putObject(tool).put("successes", e.successes()).put("failures", e.failures())
                    .put("last_used", preferences.lastUsed(context, tool)));
        });
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writeValue(tmp.toFile(), root);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write tool preferences to " + file + ": " + e.getMessage(), e);
        }
    }

    /** What a file holds: the prior, the experience and this node's episode counts. */
    public record Snapshot(ToolPreferences.Prior prior, Map<ToolPreferences.Key, Experience> experience,
                           Map<String, Long> episodes, Map<ToolPreferences.Key, Long> lastUsed) {
        /** The preferences the snapshot describes, for a report. */
        public ToolPreferences preferences() {
            ToolPreferences p = new ToolPreferences(prior, 1);
            p.restore(experience);
            p.restoreEpisodes(episodes, lastUsed);
            return p;
        }
    }

    /** The experience in {@code file}, every tool checked against {@code known}. */
    public static Map<ToolPreferences.Key, Experience> read(Path file, Collection<String> known) {
        return snapshot(file, known).experience();
    }

    /** The whole snapshot; with {@code known} null any tool name is accepted (a status report of any file). */
    public static Snapshot snapshot(Path file, Collection<String> known) {
        JsonNode root;
        try {
            root = UntrustedJson.readTree(JSON, Files.readString(file), UntrustedJson.MAX_DEPTH);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": " + UntrustedJson.reason(e));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read tool preferences " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isObject() || !root.path("contexts").isObject()) {
            throw new IllegalArgumentException(file + ": not a preference file (an object with a contexts object)");
        }
        Map<ToolPreferences.Key, Experience> out = new LinkedHashMap<>();
        Map<ToolPreferences.Key, Long> lastUsed = new LinkedHashMap<>();
        Map<String, Long> episodes = new LinkedHashMap<>();
        ToolPreferences.Prior prior = ToolPreferences.Prior.UNIFORM;
        try {
            if (root.has("prior")) prior = new ToolPreferences.Prior(root.path("prior").path("alpha").asDouble(-1), root.path("prior").path("beta").asDouble(-1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": field prior: " + e.getMessage());
        }
        for (Iterator<Map.Entry<String, JsonNode>> es = root.path("episodes").fields(); es.hasNext(); ) {
            Map.Entry<String, JsonNode> e = es.next();
            if (!e.getValue().isIntegralNumber() || e.getValue().asLong() < 0) {
                throw new IllegalArgumentException(file + ": field episodes." + e.getKey() + " must be an integer >= 0");
            }
            episodes.put(e.getKey(), e.getValue().asLong());
        }
        for (Iterator<Map.Entry<String, JsonNode>> cs = root.get("contexts").fields(); cs.hasNext(); ) {
            Map.Entry<String, JsonNode> c = cs.next();
            if (!c.getValue().isObject()) throw new IllegalArgumentException(file + ": field contexts." + c.getKey() + " must be an object");
            for (Iterator<Map.Entry<String, JsonNode>> ts = c.getValue().fields(); ts.hasNext(); ) {
                Map.Entry<String, JsonNode> t = ts.next();
                String field = "contexts." + c.getKey() + "." + t.getKey();
                if (known != null && !known.contains(t.getKey())) {
                    throw new IllegalArgumentException(file + ": field " + field + ": unknown tool '" + t.getKey() + "'");
                }
                ToolPreferences.Key key = new ToolPreferences.Key(c.getKey(), t.getKey());
                out.put(key, new Experience(count(t.getValue(), "successes", file, field), count(t.getValue(), "failures", file, field)));
                if (t.getValue().has("last_used")) lastUsed.put(key, count(t.getValue(), "last_used", file, field));
            }
        }
        return new Snapshot(prior, out, episodes, lastUsed);
    }

    private static long count(JsonNode node, String name, Path file, String field) {
        JsonNode v = node.get(name);
        if (v == null || !v.isIntegralNumber() || v.asLong() < 0) {
            throw new IllegalArgumentException(file + ": field " + field + "." + name + " must be an integer >= 0");
        }
        return v.asLong();
    }
}
