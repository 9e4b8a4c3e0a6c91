package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.BatchRow;

import java.util.List;

/**
 * The trainable rows of a set of groups.
 *
 * @param rows          one row per trace of every group that carries signal
 * @param skippedGroups groups dropped because all their rewards were equal
 */
public record GrpoBatch(List<BatchRow> rows, int skippedGroups) {
    public GrpoBatch {
        rows = List.copyOf(rows);
    }
}
