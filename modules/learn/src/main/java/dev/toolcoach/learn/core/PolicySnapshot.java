package dev.toolcoach.learn.core;

import dev.toolcoach.model.io.HostTensor;

import java.util.Map;

/** The trained weights of one policy version (PEFT-named adapter tensors in LoRA mode), ready to publish. */
public record PolicySnapshot(int version, Map<String, HostTensor> tensors) {
    public PolicySnapshot {
        tensors = Map.copyOf(tensors);
    }
}
