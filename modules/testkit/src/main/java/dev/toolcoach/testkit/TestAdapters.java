package dev.toolcoach.testkit;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Seeded random adapters with the PEFT names and shapes a model expects. */
public final class TestAdapters {

    private TestAdapters() {
    }

    public static AdapterWeights random(ModelConfig model, LoraConfig lora, int version, long seed) {
        Random random = new Random(seed);
        Map<String, HostTensor> tensors = new HashMap<>();
        for (int layer = 0; layer < model.nLayers(); layer++) {
            for (String target : lora.orderedTargets()) {
                int[] inOut = LoraAdapter.inOut(model, target);
                tensors.put(LoraAdapter.pefName(layer, target, "A"), randomTensor(random, lora.r(), inOut[0]));
                tensors.put(LoraAdapter.pefName(layer, target, "B"), randomTensor(random, inOut[1], lora.r()));
            }
        }
        return new AdapterWeights(lora, version, tensors);
    }

    /** Same version, LoRA config, tensor names, shapes and bits. */
    public static void assertSame(AdapterWeights expected, AdapterWeights actual) {
        assertEquals(expected.version(), actual.version());
        assertEquals(expected.config(), actual.config());
        assertEquals(expected.tensors().keySet(), actual.tensors().keySet());
        for (Map.Entry<String, HostTensor> e : expected.tensors().entrySet()) {
            HostTensor got = actual.tensors().get(e.getKey());
            assertArrayEquals(e.getValue().shape(), got.shape(), e.getKey());
            assertArrayEquals(e.getValue().data(), got.data(), e.getKey());
        }
    }

    private static HostTensor randomTensor(Random random, int rows, int cols) {
        float[] data = new float[rows * cols];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) (random.nextGaussian() * 0.01);
        }
        return new HostTensor(new long[] {rows, cols}, data);
    }
}
