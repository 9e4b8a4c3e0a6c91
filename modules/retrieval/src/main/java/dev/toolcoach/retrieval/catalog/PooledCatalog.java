package dev.toolcoach.retrieval.catalog;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.retrieval.ToolCatalog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One catalog pooled from every function schema of the shared tool-calling data: the three BFCL v3
 * question files and both toolcall files (Glaive, xLAM), with what each file contributed.
 *
 * @param catalog the distinct tools (identical name + description + schema kept once)
 * @param sources per file: the schemas read and the ones skipped
 */
public record PooledCatalog(ToolCatalog catalog, List<SchemaSource> sources) {

    /** BFCL v3 categories with a question file {@code bfcl/BFCL_v3_<category>.json}. */
    public static final List<String> BFCL_CATEGORIES = List.of("simple", "multiple", "parallel");

    public PooledCatalog {
        sources = List.copyOf(sources);
    }

    /** Reads the data under {@code dataRoot} (the shared data folder holding {@code bfcl/} and {@code toolcall/}). */
    public static PooledCatalog load(Path dataRoot) {
        SchemaReader reader = new SchemaReader();
        List<SchemaSource> sources = new ArrayList<>();
        for (String category : BFCL_CATEGORIES) sources.add(reader.bfcl(bfclQuestions(dataRoot, category)));
        sources.add(reader.glaive(dataRoot.resolve("toolcall/glaive_toolcall_en_demo.json")));
        sources.add(reader.xlam(dataRoot.resolve("toolcall/toolalpaca_xlam_format.json")));
        List<ToolSpec> all = new ArrayList<>();
        sources.forEach(s -> all.addAll(s.tools()));
        return new PooledCatalog(ToolCatalog.of(all), sources);
    }

    public static Path bfclQuestions(Path dataRoot, String category) {
        return dataRoot.resolve("bfcl/BFCL_v3_" + category + ".json");
    }

    public static Path bfclAnswers(Path dataRoot, String category) {
        return dataRoot.resolve("bfcl/possible_answer/BFCL_v3_" + category + ".json");
    }

    /** Schemas read, duplicates dropped, distinct tools, and skips per file. */
    public String summary() {
        int read = sources.stream().mapToInt(s -> s.tools().size()).sum();
        StringBuilder out = new StringBuilder("catalog: " + read + " schemas read, " + catalog.duplicatesDropped()
                + " duplicates dropped, " + catalog.size() + " distinct tools");
        sources.forEach(s -> out.append("\n  ").append(s.summary()));
        return out.toString();
    }
}
