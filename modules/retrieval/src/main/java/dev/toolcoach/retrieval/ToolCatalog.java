package dev.toolcoach.retrieval;

import dev.toolcoach.agent.ToolSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The tools a retriever chooses from, each distinct (same name, description and parameter schema
 * means the same tool), in the order first seen. Several tools may share a name when their
 * schemas differ, as they do across datasets.
 */
public final class ToolCatalog {

    private final List<ToolSpec> tools;
    private final int duplicatesDropped;

    private ToolCatalog(List<ToolSpec> tools, int duplicatesDropped) {
        this.tools = List.copyOf(tools);
        this.duplicatesDropped = duplicatesDropped;
    }

    /** A catalog of the distinct tools among {@code specs}; repeats are dropped and counted. */
    public static ToolCatalog of(Collection<ToolSpec> specs) {
        Set<ToolSpec> distinct = new LinkedHashSet<>(specs);
        return new ToolCatalog(new ArrayList<>(distinct), specs.size() - distinct.size());
    }

    public List<ToolSpec> tools() {
        return tools;
    }

    public int size() {
        return tools.size();
    }

    public ToolSpec get(int index) {
        return tools.get(index);
    }

    /** How many of the specs given to {@link #of} were repeats of an earlier one. */
    public int duplicatesDropped() {
        return duplicatesDropped;
    }
}
