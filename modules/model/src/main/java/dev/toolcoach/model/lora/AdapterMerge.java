package dev.toolcoach.model.lora;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import java.util.LinkedHashMap;
import java.util.Map;

/** Folds an adapter into base weights (W + alpha/r * B A) for export as a plain model. */
public final class AdapterMerge {
    private AdapterMerge() {
    }

    public static Map<String, HostTensor> merge(ModelConfig model, Map<String, HostTensor> base, AdapterWeights adapter) {
        Map<String, HostTensor> out = new LinkedHashMap<>(base);
        int r = adapter.config().r();
        float scale = adapter.config().scale();
        for (int l = 0; l < model.nLayers(); l++) {
            for (String target : adapter.config().orderedTargets()) {
                String name = HfNames.projection(l, target) + ".weight";
                HostTensor w = base.get(name);
                HostTensor a = adapter.tensors().get(LoraAdapter.pefName(l, target, "A"));
                HostTensor b = adapter.tensors().get(LoraAdapter.pefName(l, target, "B"));
                int rows = (int) w.shape()[0];
                int cols = (int) w.shape()[1];
                float[] merged = w.data().clone();
                for (int i = 0; i < rows; i++) {
                    for (int k = 0; k < r; k++) {
                        float bik = scale * b.data()[i * r + k];
                        if (bik != 0f) {
                            for (int j = 0; j < cols; j++) {
                                merged[i * cols + j] += bik * a.data()[k * cols + j];
                            }
                        }
                    }
                }
                out.put(name, new HostTensor(w.shape(), merged));
            }
        }
        return out;
    }
}
