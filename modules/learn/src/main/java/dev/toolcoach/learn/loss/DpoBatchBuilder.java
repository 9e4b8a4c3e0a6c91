package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.TrainingSequence;

import java.util.ArrayList;
import java.util.List;

/** Turns scored groups into DPO rows: chosen, rejected, chosen, rejected ..., each pair weighted 1 / pairs. */
public final class DpoBatchBuilder {
    private final DpoConfig config;

    public DpoBatchBuilder(DpoConfig config) {
        this.config = config;
    }

    /** The rows, in pairs; empty when no group has a pair that reaches the margin. */
    public List<BatchRow> build(List<ScoredGroup> groups) {
        List<PreferencePairs.Pair> pairs = new ArrayList<>();
        for (ScoredGroup g : groups) {
            pairs.addAll(PreferencePairs.of(g, config.pairMode(), config.minMargin()));
        }
        float weight = 1f / Math.max(1, pairs.size());
        List<BatchRow> rows = new ArrayList<>(2 * pairs.size());
        for (PreferencePairs.Pair p : pairs) {
            rows.add(new BatchRow(TrainingSequence.from(p.chosen().trace().rolloutId(), p.chosen().trace().tokens()), 0, weight));
            rows.add(new BatchRow(TrainingSequence.from(p.rejected().trace().rolloutId(), p.rejected().trace().tokens()), 0, weight));
        }
        return rows;
    }
}
