package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;

import java.util.Objects;

/**
 * One retrieved tool and how well it matches the query; higher is better. Scores are only
 * comparable within one answer of one retriever.
 */
public record ScoredTool(ToolSpec tool, double score) {
    public ScoredTool {
        Objects.requireNonNull(tool, "tool");
    }
}
