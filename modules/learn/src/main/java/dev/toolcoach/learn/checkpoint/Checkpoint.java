package dev.toolcoach.learn.checkpoint;

import dev.toolcoach.model.io.HostTensor;

import java.util.Map;
import java.util.Objects;

/**
 * Everything needed to continue training exactly where it stopped.
 *
 * @param step      optimiser steps taken
 * @param version   policy version of the trainable weights
 * @param rngState  state of the learner's random generator
 * @param cursor    the caller's opaque position (for example the dataset cursor)
 * @param weights   trainable tensors by name (PEFT names for a LoRA adapter)
 * @param optimiser optimiser moments by name
 */
public record Checkpoint(long step, int version, long rngState, byte[] cursor,
                         Map<String, HostTensor> weights, Map<String, HostTensor> optimiser) {
    public Checkpoint {
        cursor = cursor == null ? new byte[0] : cursor.clone();
        weights = Map.copyOf(Objects.requireNonNull(weights, "weights"));
        optimiser = Map.copyOf(Objects.requireNonNull(optimiser, "optimiser"));
    }

    @Override
    public byte[] cursor() {
        return cursor.clone();
    }

    @Override
    public String toString() {
        return "Checkpoint[step=" + step + ", version=" + version + ", tensors=" + weights.size() + "+" + optimiser.size() + "]";
    }
}
