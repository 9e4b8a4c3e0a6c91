package dev.toolcoach.learn.core;

import dev.toolcoach.learn.checkpoint.Checkpoint;
import dev.toolcoach.learn.checkpoint.CheckpointStore;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Saves the learner every N steps and puts it back from the newest good checkpoint. The caller says what a step
 * is: the learner's optimiser steps, or a job's batches (which go on when a batch has nothing to learn from, and
 * whose dataset cursor must be saved all the same).
 */
public final class PeriodicCheckpoints {
    private final CheckpointStore store;
    private final int everySteps;
    private long lastSavedStep;

    public PeriodicCheckpoints(CheckpointStore store, int everySteps) {
        if (everySteps < 1) {
            throw new IllegalArgumentException("checkpoint interval must be >= 1 step, got " + everySteps);
        }
        this.store = store;
        this.everySteps = everySteps;
    }

    /** Whether {@link #afterBatch} would save at this step: a multiple of N steps was passed since the last save. */
    public boolean due(long step) {
        return step / everySteps > lastSavedStep / everySteps;
    }

    /** Call after each optimiser step; saves when {@link #due} at the learner's step count. */
    public Optional<Path> afterBatch(LearnerCore learner, byte[] cursor) {
        return afterBatch(learner, cursor, learner.step());
    }

    /** Call after each of the caller's steps; saves when {@link #due} (the cursor is only read then, so it may be fetched lazily). */
    public Optional<Path> afterBatch(LearnerCore learner, byte[] cursor, long step) {
        if (due(step)) {
            Path saved = store.save(learner.checkpoint(cursor));
            lastSavedStep = step; // only now: a failed save stays due, so the next step tries again
            return Optional.of(saved);
        }
        return Optional.empty();
    }

    /**
     * Restores the newest checkpoint that verifies (damaged newer ones are logged and skipped).
     *
     * @return the caller's cursor saved with it, or empty when there is nothing to resume from
     */
    public Optional<byte[]> resume(LearnerCore learner) {
        CheckpointStore.Restored restored = store.loadLatest();
        restored.checkpoint().ifPresent(c -> {
            learner.restore(c);
            lastSavedStep = c.step();
        });
        return restored.checkpoint().map(Checkpoint::cursor);
    }
}
