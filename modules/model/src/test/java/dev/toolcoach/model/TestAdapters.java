package dev.toolcoach.model;

import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/** Adapters that really change the model: seeded Gaussian noise added to (all or only the B) matrices. */
final class TestAdapters {
    private TestAdapters() {
    }

    static AdapterWeights perturbed(AdapterWeights w, long seed, float std, boolean onlyB, int version) {
        Random rnd = new Random(seed);
        Map<String, HostTensor> t = new HashMap<>(w.tensors());
        for (String name : t.keySet().stream().sorted().toList()) { // sorted: the same noise lands on the same tensor
            if (onlyB && !name.contains("lora_B")) {
                continue;
            }
            float[] d = t.get(name).data().clone();
            for (int i = 0; i < d.length; i++) {
                d[i] += (float) rnd.nextGaussian() * std;
            }
            t.put(name, new HostTensor(t.get(name).shape(), d));
        }
        return new AdapterWeights(w.config(), version, t);
    }
}
