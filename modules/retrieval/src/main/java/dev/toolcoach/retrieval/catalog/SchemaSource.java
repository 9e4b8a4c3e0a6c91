package dev.toolcoach.retrieval.catalog;

import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tasks.datasets.DatasetIssue;

import java.util.List;

/**
 * The function schemas read from one dataset file, and the ones skipped with where and why. Nothing
 * is dropped without an entry in {@code skipped}.
 */
public record SchemaSource(String file, List<ToolSpec> tools, List<DatasetIssue> skipped) {
    public SchemaSource {
        tools = List.copyOf(tools);
        skipped = List.copyOf(skipped);
    }

    public String summary() {
        return file + ": " + tools.size() + " schemas, " + skipped.size() + " skipped";
    }
}
