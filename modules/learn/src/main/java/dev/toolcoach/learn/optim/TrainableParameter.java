package dev.toolcoach.learn.optim;

import ai.djl.ndarray.NDArray;

import java.util.Objects;

/** A named tensor the optimiser updates in place (its gradient is attached by the model's forward). */
public record TrainableParameter(String name, NDArray value) {
    public TrainableParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
