package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.KvSlots;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A half base (f16 weights and activations; norms, softmax, adapter and logits in f32), as a GPU engine holds one, run
 * here on the CPU: every family's logits, cached decode and adapter scores stay within f16's precision of the f32 base,
 * and, on DJL's own JNI, training an adapter over it is refused rather than silently getting no gradient.
 */
class HalfPrecisionTest {
    private static final int[][] TOKENS = {{1, 5, 9, 2, 7, 3, 11, 4}, {0, 0, 1, 8, 6, 12, 2, 9}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1}, {0, 0, 1, 1, 1, 1, 1, 1}};

    @Test
    void autoIsF32OnTheCpuAndBf16OnAGpuOnlyWithToolCoachsJni() {
        Set<String> built = Set.of(TorchRuntime.BF16, TorchRuntime.CAST_GRADIENT);
        assertEquals(Precision.F32, Precision.defaultFor(Device.cpu(), built));
        assertEquals(Precision.BF16, Precision.defaultFor(Device.gpu(), built));
        assertEquals(Precision.F32, Precision.defaultFor(Device.gpu(), Set.of()));
    }

    @Test
    void aHalfBaseStaysWithinF16PrecisionOfTheF32BaseForEveryFamily(@TempDir Path dir) throws IOException {
        try (NDManager root = TestModels.newRoot()) {
            for (Family family : Family.values()) {
                Path folder = TinyHfFolders.write(dir.resolve(family.name()), family, Rope.DEFAULT, ConfigStyle.V4, 6L);
                HfModelFolder.Located located = HfModelFolder.locate(folder);
                try (Transformer full = Transformer.load(located.config(), located.tensors(), root);
                     Transformer half = Transformer.load(located.config(), located.tensors(), root, DataType.FLOAT16)) {
                    assertEquals(DataType.FLOAT32, full.dtype());
                    assertEquals(DataType.FLOAT16, half.dtype());
                    assertEquals(DataType.FLOAT16, half.weights().layers().get(0).wqkv().getDataType());
                    float[] expected = logits(full, null);
                    assertClose(family + " whole forward", expected, logits(half, null));
                    assertClose(family + " cached decode", lastLogits(full), lastLogits(half));
                    try (LoraAdapter adapter = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)),
                            located.config(), root, 9L)) {
                        adapter.parameters().forEach(p -> p.addi(p.getManager().randomNormal(0, 0.05f, p.getShape(), p.getDataType())));
                        float[] adapted = logits(full, adapter);
                        assertTrue(maxAbsDiff(expected, adapted) > 1e-3, family + ": the adapter must move the logits");
                        assertClose(family + " with an adapter", adapted, logits(half, adapter));
                        adapter.setTrainable(true);
                        if (!TorchRuntime.castsCarryGradient()) { // DJL's own JNI (ToolCoach's: SourceJniPrecisionTest)
                            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> logits(half, adapter));
                            assertTrue(refused.getMessage().contains("cannot be trained over a float16 base"), refused.getMessage());
                        }
                    }
                }
            }
        }
    }

    /**
     * Logits of every real position; a padding position's are zeroed: they are never read, and what attention returns
     * for a query that sees no key differs by kernel and type (uniform weights in f32, other values in f16).
     */
    private static float[] logits(Transformer model, LoraAdapter adapter) {
        try (NDManager scope = model.manager().newSubManager()) {
            float[] out = model.forward(StepInputs.scoring(TOKENS, MASK), scope, null, adapter, false, false).toFloatArray();
            int len = TOKENS[0].length;
            int vocab = out.length / (TOKENS.length * len);
            for (int r = 0; r < TOKENS.length; r++) {
                for (int i = 0; i < len; i++) {
                    if (MASK[r][i] == 0) {
                        java.util.Arrays.fill(out, (r * len + i) * vocab, (r * len + i + 1) * vocab, 0f);
                    }
                }
            }
            return out;
        }
    }

    /** The first row's prompt prefilled into a cache of the model's type, then 3 tokens decoded one by one. */
    private static float[] lastLogits(Transformer model) {
        int[] row = TOKENS[0];
        try (KvSlots cache = new KvSlots(model.config(), model.manager(), 1, model.dtype())) {
            float[] last = null;
            int[][] step = {java.util.Arrays.copyOf(row, row.length - 3)};
            for (int next = row.length - 3; next <= row.length; next++) {
                try (NDManager scope = model.manager().newSubManager()) {
                    int start = next - step[0].length;
                    last = model.forward(StepInputs.slotted(step, new int[] {0}, new int[] {start}), scope, cache, null, false, true)
                            .toFloatArray();
                }
                if (next < row.length) {
                    step = new int[][] {{row[next]}};
                }
            }
            return last;
        }
    }

    /** f16 keeps 11 bits: a few layers of it move the logits by well under 2% of their scale. */
    private static void assertClose(String what, float[] expected, float[] actual) {
        assertEquals(expected.length, actual.length, what);
        double scale = 0;
        for (float v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        double worst = maxAbsDiff(expected, actual);
        assertTrue(worst > 0, what + ": the half base must really compute in f16");
        assertTrue(worst < 0.02 * scale, what + ": off by " + worst + " at scale " + scale);
    }

    private static double maxAbsDiff(float[] a, float[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]));
        }
        return worst;
    }
}
