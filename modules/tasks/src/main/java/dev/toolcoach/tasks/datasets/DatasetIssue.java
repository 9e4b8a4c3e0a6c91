package dev.toolcoach.tasks.datasets;

/** A dataset record that was skipped (malformed) or filtered out (invalid calls): where, and why. */
public record DatasetIssue(String location, String reason) {
    @Override
    public String toString() {
        return location + ": " + reason;
    }
}
