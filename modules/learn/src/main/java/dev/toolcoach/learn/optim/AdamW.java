package dev.toolcoach.learn.optim;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.nn.NoGrad;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adam with decoupled weight decay over a fixed list of parameters, updated in place. Call outside
 * a gradient collector (PyTorch refuses in-place writes to leaves while recording).
 */
public final class AdamW implements AutoCloseable {
    private final AdamWConfig config;
    private final List<TrainableParameter> parameters;
    private final NDManager manager;
    private final List<NDArray> firstMoments = new ArrayList<>();
    private final List<NDArray> secondMoments = new ArrayList<>();
    private long steps;

    public AdamW(AdamWConfig config, List<TrainableParameter> parameters, NDManager parent) {
        this.config = config;
        this.parameters = List.copyOf(parameters);
        this.manager = parent.newSubManager();
        for (TrainableParameter p : this.parameters) {
            firstMoments.add(manager.zeros(p.value().getShape(), p.value().getDataType()));
            secondMoments.add(manager.zeros(p.value().getShape(), p.value().getDataType()));
        }
    }

    /** Applies one update with each parameter's current gradient. */
    public void step(double learningRate) {
        steps++;
        double correction1 = 1 - Math.pow(config.beta1(), steps);
        double correction2 = 1 - Math.pow(config.beta2(), steps);
        try (NoGrad ignored = NoGrad.enter()) {
            update(learningRate, correction1, correction2);
        }
    }

    private void update(double learningRate, double correction1, double correction2) {
        for (int i = 0; i < parameters.size(); i++) {
            NDArray param = parameters.get(i).value();
            try (NDManager scope = manager.newSubManager()) {
                NDArray grad = param.getGradient();
                scope.attachAll(grad);
                NDArray m = firstMoments.get(i);
                NDArray v = secondMoments.get(i);
                m.muli(config.beta1()).addi(scoped(scope, grad.mul(1 - config.beta1())));
                v.muli(config.beta2()).addi(scoped(scope, grad.square().muli(1 - config.beta2())));
                if (config.weightDecay() > 0) {
                    param.muli(1 - learningRate * config.weightDecay());
                }
                NDArray denominator = scoped(scope, scoped(scope, v.div(correction2)).sqrt()).addi(config.eps());
                NDArray update = scoped(scope, m.div(denominator)).muli(learningRate / correction1);
                param.subi(update);
            }
        }
    }

    private static NDArray scoped(NDManager scope, NDArray a) {
        scope.attachAll(a);
        return a;
    }

    public long steps() {
        return steps;
    }

    /** Moments as host tensors, keyed "m/NAME" and "v/NAME", for checkpoints. */
    public Map<String, HostTensor> state() {
        Map<String, HostTensor> out = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            String name = parameters.get(i).name();
            out.put("m/" + name, toHost(firstMoments.get(i)));
            out.put("v/" + name, toHost(secondMoments.get(i)));
        }
        return out;
    }

    private static HostTensor toHost(NDArray a) {
        return new HostTensor(a.getShape().getShape(), a.toType(DataType.FLOAT32, false).toFloatArray());
    }

    /** Restores moments written by {@link #state()} and the step count they belong to. */
    public void restore(Map<String, HostTensor> state, long stepCount) {
        for (int i = 0; i < parameters.size(); i++) {
            String name = parameters.get(i).name();
            copyInto(state, "m/" + name, firstMoments.get(i));
            copyInto(state, "v/" + name, secondMoments.get(i));
        }
        this.steps = stepCount;
    }

    private static void copyInto(Map<String, HostTensor> state, String key, NDArray target) {
        HostTensor t = state.get(key);
        if (t == null) {
            throw new IllegalArgumentException("optimiser state has no tensor " + key);
        }
        if (!t.hasShape(target.getShape().getShape())) {
            throw new IllegalArgumentException("optimiser tensor " + key + " has shape " + Arrays.toString(t.shape())
                    + " but the parameter has " + target.getShape());
        }
        target.set(t.data());
    }

    @Override
    public void close() {
        manager.close();
    }
}
