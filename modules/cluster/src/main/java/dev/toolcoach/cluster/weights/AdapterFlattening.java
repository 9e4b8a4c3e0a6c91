package dev.toolcoach.cluster.weights;

import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterLayout;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns an adapter into a layout plus one float array and back; tensors go in name order, the same on every node. */
public final class AdapterFlattening {

    private AdapterFlattening() {
    }

    /** An adapter as its layout and its floats laid end to end. */
    public record Flat(AdapterLayout layout, float[] floats) {
    }

    public static Flat flatten(AdapterWeights weights) {
        LoraConfig c = weights.config();
        List<String> names = weights.tensors().keySet().stream().sorted().toList();
        List<AdapterLayout.Tensor> tensors = new ArrayList<>(names.size());
        long total = 0;
        for (String name : names) {
            HostTensor t = weights.tensors().get(name);
            tensors.add(new AdapterLayout.Tensor(name, t.shape()));
            total += t.data().length;
        }
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("adapter version " + weights.version() + " has " + total
                    + " floats, more than one array can hold");
        }
        float[] floats = new float[(int) total];
        int at = 0;
        for (String name : names) {
            float[] data = weights.tensors().get(name).data();
            System.arraycopy(data, 0, floats, at, data.length);
            at += data.length;
        }
        AdapterLayout layout = new AdapterLayout(c.r(), c.alpha(), c.dropout(), c.orderedTargets(), tensors);
        return new Flat(layout, floats);
    }

    public static AdapterWeights unflatten(int version, AdapterLayout layout, float[] floats) {
        if (layout.totalFloats() != floats.length) {
            throw new IllegalArgumentException("adapter version " + version + ": layout needs " + layout.totalFloats()
                    + " floats, got " + floats.length);
        }
        Map<String, HostTensor> tensors = new LinkedHashMap<>();
        int at = 0;
        for (AdapterLayout.Tensor t : layout.tensors()) {
            int n = (int) HostTensor.numel(t.shape());
            float[] data = new float[n];
            System.arraycopy(floats, at, data, 0, n);
            tensors.put(t.name(), new HostTensor(t.shape(), data));
            at += n;
        }
        LoraConfig config = new LoraConfig(layout.rank(), layout.alpha(), layout.dropout(), new HashSet<>(layout.targets()));
        return new AdapterWeights(config, version, tensors);
    }
}
