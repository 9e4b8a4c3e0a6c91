package dev.toolcoach.learn.core;

import dev.toolcoach.learn.checkpoint.Checkpoint;
import dev.toolcoach.learn.checkpoint.CheckpointStore;

import java.nio.file.Path;
import java.util.Optional;

/** Saves the learner every N optimiser steps and puts it back from the newest good checkpoint. */
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

    /** Whether {@link #afterBatch} would save at this learner step: a multiple of N steps was passed since the last save. */
    public boolean due(long step) {
        return step / everySteps > lastSavedStep / everySteps;
    }

    /** Call after each batch; saves when {@link #due} (the cursor is only read then, so callers may fetch it lazily). */
    public Optional<Path> afterBatch(LearnerCore learner, byte[] cursor) {
        long step = learner.step();
        if (due(step)) {
            lastSavedStep = step;
            return Optional.of(store.save(learner.checkpoint(cursor)));
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
