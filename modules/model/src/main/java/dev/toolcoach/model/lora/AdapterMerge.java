package dev.toolcoach.model.lora;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Folds an adapter into base weights (W + alpha/r * B A) on the host, for export as a plain model ({@code coach-node
 * merge}). An engine serving an adapter merges it on the device instead ({@code Transformer.withAdapterMerged}).
 */
public final class AdapterMerge {
    private AdapterMerge() {
    }

    /**
     * @param base HF-named base weights
     * @throws IllegalArgumentException when the adapter does not fit the model (a projection or adapter tensor missing,
     *                                  shapes that do not match)
     */
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
                if (w == null) throw new IllegalArgumentException("the adapter targets " + name + ", which the model does not have");
                if (a == null || b == null) {
                    throw new IllegalArgumentException("the adapter has no " + LoraAdapter.pefName(l, target, a == null ? "A" : "B"));
                }
                int rows = (int) w.shape()[0];
                int cols = (int) w.shape()[1];
                if (a.shape()[0] != r || a.shape()[1] != cols || b.shape()[0] != rows || b.shape()[1] != r) {
                    throw new IllegalArgumentException("the adapter's " + target + " of layer " + l + " (A " + Arrays.toString(a.shape())
                            + ", B " + Arrays.toString(b.shape()) + ") does not fit " + name + " " + Arrays.toString(w.shape()));
                }
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
