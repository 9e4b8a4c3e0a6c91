package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.batch.TrainingSequence;

import java.util.List;

/**
 * Supervised rows for distillation: keeps a teacher's traces whose reward reaches the threshold and
 * weights every kept generated token equally.
 */
public final class SftBatchBuilder {
    private final double rewardThreshold;

    public SftBatchBuilder(double rewardThreshold) {
        this.rewardThreshold = rewardThreshold;
    }

    /** @param rows the kept rows; @param rejected traces below the threshold */
    public record Selection(List<BatchRow> rows, int rejected) {
    }

    public Selection build(List<ScoredTrace> traces) {
        List<TrainingSequence> kept = traces.stream().filter(t -> t.reward() >= rewardThreshold)
                .map(t -> TrainingSequence.from(t.trace().rolloutId(), t.trace().tokens())).toList();
        int tokens = kept.stream().mapToInt(TrainingSequence::generatedCount).sum();
        List<BatchRow> rows = kept.stream().map(s -> new BatchRow(s, 0, 1f / tokens)).toList();
        return new Selection(rows, traces.size() - kept.size());
    }
}
