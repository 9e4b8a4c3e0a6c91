package dev.toolcoach.learn.core;

import dev.toolcoach.learn.optim.TrainableParameter;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.LoraAdapter;

import java.util.List;
import java.util.Map;

/** The weights a learner updates, and how they reach a forward pass and a checkpoint. */
public interface TrainableWeights {

    /** The arrays to optimise, named so optimiser state and checkpoints can be matched to them. */
    List<TrainableParameter> parameters();

    /** The adapter the policy forward applies; null when the base weights themselves are trained. */
    LoraAdapter adapter();

    /** True when a frozen reference exists (the same model with the adapter left out). */
    boolean hasReference();

    /** Host copy of the current values by name. */
    Map<String, HostTensor> snapshot();

    /** Overwrites the values in place from {@link #snapshot()} output. */
    void restore(Map<String, HostTensor> values);
}
