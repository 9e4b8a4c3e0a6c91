package dev.toolcoach.learn.core;

import dev.toolcoach.learn.optim.TrainableParameter;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** A LoRA adapter over frozen base weights: the base model with the adapter left out is the reference. */
public final class LoraWeights implements TrainableWeights {
    private final LoraAdapter adapter;
    private final List<TrainableParameter> parameters;

    public LoraWeights(LoraAdapter adapter) {
        this.adapter = adapter;
        adapter.setTrainable(true);
        var arrays = adapter.parameters(); // fixed order: layer, target, A then B
        this.parameters = IntStream.range(0, arrays.size())
                .mapToObj(i -> new TrainableParameter("lora." + i, arrays.get(i))).toList();
    }

    @Override
    public List<TrainableParameter> parameters() {
        return parameters;
    }

    @Override
    public LoraAdapter adapter() {
        return adapter;
    }

    @Override
    public boolean hasReference() {
        return true;
    }

    @Override
    public Map<String, HostTensor> snapshot() {
        return adapter.snapshot().tensors();
    }

    @Override
    public void restore(Map<String, HostTensor> values) {
        adapter.restore(new AdapterWeights(adapter.config(), adapter.version(), values));
    }
}
