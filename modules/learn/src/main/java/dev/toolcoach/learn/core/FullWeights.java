package dev.toolcoach.learn.core;

import ai.djl.ndarray.NDArray;
import dev.toolcoach.learn.optim.TrainableParameter;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.nn.Transformer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Every base weight of a (tiny) model trained from scratch. There is no frozen copy, so no reference
 * policy: KL penalties and DPO are refused in this mode.
 */
public final class FullWeights implements TrainableWeights {
    private final List<TrainableParameter> parameters;

    public FullWeights(Transformer model) {
        List<NDArray> arrays = model.weights().all();
        arrays.forEach(a -> a.setRequiresGradient(true));
        this.parameters = IntStream.range(0, arrays.size())
                .mapToObj(i -> new TrainableParameter("base." + i, arrays.get(i))).toList();
    }

    @Override
    public List<TrainableParameter> parameters() {
        return parameters;
    }

    @Override
    public LoraAdapter adapter() {
        return null;
    }

    @Override
    public boolean hasReference() {
        return false;
    }

    @Override
    public Map<String, HostTensor> snapshot() {
        Map<String, HostTensor> out = new LinkedHashMap<>();
        for (TrainableParameter p : parameters) {
            out.put(p.name(), new HostTensor(p.value().getShape().getShape(), p.value().toFloatArray()));
        }
        return out;
    }

    @Override
    public void restore(Map<String, HostTensor> values) {
        for (TrainableParameter p : parameters) {
            HostTensor t = values.get(p.name());
            if (t == null || !t.hasShape(p.value().getShape().getShape())) {
                throw new IllegalArgumentException("weights have no tensor " + p.name() + " of shape " + p.value().getShape());
            }
        }
        parameters.forEach(p -> p.value().set(values.get(p.name()).data()));
    }
}
