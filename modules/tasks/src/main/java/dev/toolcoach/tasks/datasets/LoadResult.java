package dev.toolcoach.tasks.datasets;

import java.util.List;

/**
 * What a loader read from a file: the usable items, the records skipped because they were
 * malformed, and the samples filtered out because their gold calls are invalid. Nothing is dropped
 * without an entry here.
 */
public record LoadResult<T>(String source, List<T> items, List<DatasetIssue> malformed, List<DatasetIssue> filtered) {
    public LoadResult {
        items = List.copyOf(items);
        malformed = List.copyOf(malformed);
        filtered = List.copyOf(filtered);
    }

    public String summary() {
        return source + ": " + items.size() + " loaded, " + malformed.size() + " malformed skipped, "
                + filtered.size() + " filtered (invalid calls)";
    }
}
