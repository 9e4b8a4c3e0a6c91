package dev.toolcoach.learn.loss;

import dev.toolcoach.learn.batch.BatchRow;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.learn.batch.ScoredTrace;
import dev.toolcoach.learn.batch.TrainingSequence;

import java.util.ArrayList;
import java.util.List;

/** Turns scored groups into GRPO rows: advantages per trace and aggregation weights per row. */
public final class GrpoBatchBuilder {
    private final GrpoConfig config;

    public GrpoBatchBuilder(GrpoConfig config) {
        this.config = config;
    }

    public Batch build(List<ScoredGroup> groups) {
        List<TrainingSequence> sequences = new ArrayList<>();
        List<Float> advantages = new ArrayList<>();
        int skipped = 0;
        boolean normalise = config.aggregation() != GrpoConfig.Aggregation.DR_GRPO;
        for (ScoredGroup group : groups) {
            if (group.hasZeroVariance()) {
                skipped++;
                continue;
            }
            float[] adv = GroupAdvantages.of(group.rewards(), normalise, config.advantageEps());
            for (int i = 0; i < group.traces().size(); i++) {
                ScoredTrace t = group.traces().get(i);
                sequences.add(TrainingSequence.from(t.trace().rolloutId(), t.trace().tokens()));
                advantages.add(adv[i]);
            }
        }
        int totalTokens = sequences.stream().mapToInt(TrainingSequence::generatedCount).sum();
        List<BatchRow> rows = new ArrayList<>(sequences.size());
        for (int i = 0; i < sequences.size(); i++) {
            TrainingSequence s = sequences.get(i);
            rows.add(new BatchRow(s, advantages.get(i), rowWeight(s, sequences.size(), totalTokens)));
        }
        return new Batch(rows, skipped);
    }

    private float rowWeight(TrainingSequence s, int sequenceCount, int totalTokens) {
        return switch (config.aggregation()) {
            case TOKEN_MEAN -> 1f / totalTokens;
            case SEQUENCE_MEAN -> 1f / ((float) s.generatedCount() * sequenceCount);
            case DR_GRPO -> 1f / ((float) config.drGrpoLength() * sequenceCount);
        };
    }

    /**
     * The trainable rows of a set of groups.
     *
     * @param rows          one row per trace of every group that carries signal
     * @param skippedGroups groups dropped because all their rewards were equal
     */
    public record Batch(List<BatchRow> rows, int skippedGroups) {
        public Batch {
            rows = List.copyOf(rows);
        }
    }
}
