package dev.toolcoach.retrieval.offer;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How the tools of a query are chosen from the catalogue (ToolBrain's {@code enable_tool_retrieval}). */
public enum RetrievalMode {
    /** Lucene BM25 over names, descriptions and parameters; no model call. */
    LEXICAL,
    /** A model is shown the whole catalogue and names the tools (small catalogues only). */
    LLM,
    /** BM25 shortlists candidates, a model picks among them; the shortlist's order when its reply is unusable. */
    HYBRID;

    /** {@code lexical}, {@code llm} or {@code hybrid}, any case. */
    public static RetrievalMode parse(String name) {
        String n = name == null ? "" : name.trim().toUpperCase(Locale.ROOT);
        for (RetrievalMode m : values()) {
            if (m.name().equals(n)) return m;
        }
        throw new IllegalArgumentException("unknown tool retrieval '" + name + "'; valid: "
                + Arrays.stream(values()).map(RetrievalMode::label).collect(Collectors.joining(", ")));
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether this mode asks a model (and so needs an endpoint). */
    public boolean needsModel() {
        return this != LEXICAL;
    }
}
