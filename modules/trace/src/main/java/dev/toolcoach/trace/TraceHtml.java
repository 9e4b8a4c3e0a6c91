package dev.toolcoach.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;

/**
 * Traces as one self-contained HTML page (the viewer in {@code trace-viewer.html}): search and filters by step, reward
 * and tool, every turn as {@link TracePrinter} tells it, and the token record coloured by behaviour log-prob or policy
 * version with masked (prompt, observation) tokens greyed. The page loads nothing: its script and style are inline and
 * its Content-Security-Policy forbids every fetch.
 *
 * <p>Trace text is untrusted (model and tool output): it travels only as JSON inside a {@code script} element of type
 * {@code application/json}, with {@code <}, {@code >}, {@code &} and the JavaScript line separators escaped so no text
 * can close that element, and the page's script only ever sets it as text.
 */
public final class TraceHtml {

    private static final String PLACEHOLDER = "@@TRACE_DATA@@";
    private static final ObjectMapper JSON = TraceJson.mapper();

    private TraceHtml() {
    }

    /**
     * @param title     the page's title
     * @param tokenText the text of a token id, for the token view; null to show ids
     */
    public static String render(String title, List<Trace> traces, IntFunction<String> tokenText) {
        Objects.requireNonNull(title, "title");
        ObjectNode data = JSON.createObjectNode().put("title", title);
        ArrayNode items = data.putArray("traces");
        TreeSet<Integer> ids = new TreeSet<>();
        for (Trace trace : traces) {
            items.add(traceNode(trace));
            for (int id : trace.tokens().tokenIds()) ids.add(id);
        }
        TreeMap<String, String> texts = new TreeMap<>();
        if (tokenText != null) for (int id : ids) texts.put(Integer.toString(id), tokenText.apply(id));
        data.set("token_text", JSON.valueToTree(texts));
        return template().replace(PLACEHOLDER, scriptSafe(write(data)));
    }

    private static ObjectNode traceNode(Trace t) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", t.rolloutId()).put("group", t.groupId()).put("query_id", t.queryId()).put("query", t.query());
        if (t.jobStep().isPresent()) n.put("step", t.jobStep().getAsLong()); else n.putNull("step");
        if (t.reward().isPresent()) n.put("reward", t.reward().getAsDouble()); else n.putNull("reward");
        n.put("termination", t.termination().name()).put("final_answer", t.finalAnswer()).put("error", t.error())
                .put("duration_ms", t.durationMillis());
        TreeSet<String> tools = new TreeSet<>();
        t.toolCalls().forEach(c -> tools.add(c.name()));
        n.set("tools", JSON.valueToTree(tools));
        StringBuilder search = new StringBuilder().append(t.rolloutId()).append('\n').append(nullToEmpty(t.query()))
                .append('\n').append(nullToEmpty(t.finalAnswer()));
        ArrayNode turns = n.putArray("turns");
        String seen = null;
        for (Turn turn : t.turns()) {
            ObjectNode o = turns.addObject();
            String prompt = turn.promptForModel();
            boolean isNew = seen != null && prompt != null && prompt.startsWith(seen);
            o.put("prompt", prompt == null ? "(not recorded)" : isNew ? prompt.substring(seen.length()) : prompt)
                    .put("prompt_is_new", isNew).put("completion", nullToEmpty(turn.modelCompletion()))
                    .put("observation", turn.toolOutput()).put("token_start", turn.tokenStart()).put("token_end", turn.tokenEnd());
            o.set("parsed", parsed(turn.parsedCompletion()));
            ArrayNode results = o.putArray("results");
            for (ToolResult r : turn.actionOutput()) {
                results.addObject().put("tool", r.call().name()).put("status", r.status().name()).put("text", r.text())
                        .put("latency_ms", r.latencyMillis()).put("truncated", r.truncated());
                search.append('\n').append(r.text());
            }
            search.append('\n').append(nullToEmpty(turn.modelCompletion())).append('\n').append(nullToEmpty(turn.toolOutput()));
            seen = prompt == null ? null : prompt + nullToEmpty(turn.modelCompletion());
        }
        n.put("search", search.toString().toLowerCase(Locale.ROOT));
        n.set("warnings", JSON.valueToTree(TraceWarnings.of(t)));
        TokenRecord k = t.tokens();
        ObjectNode tokens = n.putObject("tokens").put("prompt_length", k.promptLength());
        tokens.set("ids", JSON.valueToTree(k.tokenIds()));
        tokens.set("mask", JSON.valueToTree(k.lossMask()));
        ArrayNode logprobs = tokens.putArray("logprobs");
        for (float lp : k.behaviorLogprobs()) {
            if (Float.isFinite(lp)) logprobs.add(lp); else logprobs.addNull(); // JSON has no NaN or infinity
        }
        tokens.set("versions", JSON.valueToTree(k.policyVersions()));
        tokens.set("context_starts", JSON.valueToTree(k.contextStarts()));
        return n;
    }

    private static ObjectNode parsed(ParsedCompletion p) {
        if (p == null) return null;
        ObjectNode o = JSON.createObjectNode().put("thought", p.thought()).put("answer", p.finalAnswer())
                .put("parse_error", p.parseError() == null ? null : p.parseError().toString());
        ArrayNode calls = o.putArray("calls");
        for (ToolCall c : p.toolCalls()) calls.addObject().put("name", c.name()).put("arguments", write(c.arguments()));
        return o;
    }

    /** JSON that cannot end the script element it sits in, nor be read as markup by the HTML parser. */
    static String scriptSafe(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("traces cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String template() {
        try (InputStream in = TraceHtml.class.getResourceAsStream("trace-viewer.html")) {
            if (in == null) throw new IllegalStateException("trace-viewer.html is missing from the trace module's jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace-viewer.html", e);
        }
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
