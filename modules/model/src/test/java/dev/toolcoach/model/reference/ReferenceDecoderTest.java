package dev.toolcoach.model.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReferenceDecoderTest {
    private static final int[] TOKENS = tokens(TinyHfFolders.LONG_SEQUENCE, 80);

    /** A fixed token sequence below {@code vocab}. */
    static int[] tokens(int len, int vocab) {
        int[] t = new int[len];
        for (int i = 0; i < len; i++) {
            t[i] = (7 + 13 * i + i * i) % vocab;
        }
        return t;
    }

    private static double maxAbsDiff(double[][] a, double[][] b, int rows) {
        double m = 0;
        for (int i = 0; i < rows; i++) {
            for (int v = 0; v < a[i].length; v++) {
                m = Math.max(m, Math.abs(a[i][v] - b[i][v]));
            }
        }
        return m;
    }

    /** The production forward (DJL, f32), trusted today for llama and qwen2 with default RoPE. */
    private static double[][] productionLogits(Path dir, int[] tokens) {
        OpThreads.setIntraOp(1);
        HfModelFolder.Contents c = HfModelFolder.read(dir);
        int[] mask = new int[tokens.length];
        Arrays.fill(mask, 1);
        try (NDManager root = NDManager.newBaseManager();
             Transformer t = Transformer.create(c.config(), c.tensors(), root);
             NDManager scope = root.newSubManager()) {
            NDArray logits = t.forward(StepInputs.scoring(new int[][] {tokens}, new int[][] {mask}), scope, null, null, false, false);
            float[] flat = logits.toFloatArray();
            int vocab = c.config().vocabSize();
            double[][] out = new double[tokens.length][vocab];
            for (int i = 0; i < tokens.length; i++) {
                for (int v = 0; v < vocab; v++) {
                    out[i][v] = flat[i * vocab + v];
                }
            }
            return out;
        }
    }

    @Test
    void agreesWithTheProductionForwardWhereItIsTrusted(@TempDir Path dir) throws Exception {
        for (Family family : new Family[] {Family.LLAMA, Family.QWEN2}) {
            Path folder = TinyHfFolders.write(dir.resolve(family.modelType), family, Rope.DEFAULT, ConfigStyle.V4, 5L);
            double[][] reference = ReferenceDecoder.load(folder).logits(TOKENS);
            double[][] production = productionLogits(folder, TOKENS);
            double diff = maxAbsDiff(reference, production, TOKENS.length);
            assertTrue(diff < 1e-4, family + ": max |reference - production| = " + diff);
            double spread = 0;
            for (double[] row : reference) {
                spread = Math.max(spread, Arrays.stream(row).max().orElseThrow() - Arrays.stream(row).min().orElseThrow());
            }
            assertTrue(spread > 1, family + ": logits vary enough for the agreement to mean something, spread " + spread);
        }
    }

    @Test
    void v4AndV5ConfigStylesGiveTheSameLogits(@TempDir Path dir) throws Exception {
        Object[][] cases = {{Family.LLAMA, Rope.LLAMA3}, {Family.LLAMA, Rope.DYNAMIC}, {Family.QWEN2, Rope.YARN},
                {Family.QWEN3, Rope.DEFAULT}, {Family.MISTRAL, Rope.LINEAR}, {Family.PHI3, Rope.LONGROPE}};
        for (Object[] c : cases) {
            Family f = (Family) c[0];
            Rope r = (Rope) c[1];
            String name = f + "-" + r;
            double[][] v4 = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve(name + "-v4"), f, r, ConfigStyle.V4, 3L)).logits(TOKENS);
            double[][] v5 = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve(name + "-v5"), f, r, ConfigStyle.V5, 3L)).logits(TOKENS);
            assertEquals(0.0, maxAbsDiff(v4, v5, TOKENS.length), 1e-12, name);
        }
    }

    @Test
    void everyRopeVariantChangesTheLogitsOfTheSameWeights(@TempDir Path dir) throws Exception {
        double[][] plain = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("default"), Family.LLAMA, Rope.DEFAULT, ConfigStyle.V5, 9L)).logits(TOKENS);
        for (Rope r : new Rope[] {Rope.LINEAR, Rope.DYNAMIC, Rope.LLAMA3, Rope.YARN, Rope.LONGROPE}) {
            double[][] scaled = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve(r.name()), Family.LLAMA, r, ConfigStyle.V5, 9L)).logits(TOKENS);
            assertTrue(maxAbsDiff(plain, scaled, TOKENS.length) > 1e-3, r + " leaves the logits unchanged");
        }
    }

    @Test
    void dynamicAndLongropeDependOnTheWholeSequenceLength(@TempDir Path dir) throws Exception {
        // Both recompute their frequencies from the forward's length: the first 16 positions of a 24-token forward
        // differ from a 16-token forward (past max/original positions 16), unlike a plain causal model.
        for (Object[] c : new Object[][] {{Family.LLAMA, Rope.DYNAMIC}, {Family.PHI3, Rope.LONGROPE}, {Family.LLAMA, Rope.LLAMA3}}) {
            ReferenceDecoder d = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve(c[0] + "-" + c[1]), (Family) c[0], (Rope) c[1], ConfigStyle.V4, 2L));
            double[][] whole = d.logits(TOKENS);
            double[][] prefix = d.logits(Arrays.copyOf(TOKENS, 16));
            double diff = maxAbsDiff(whole, prefix, 16);
            if (c[1] == Rope.LLAMA3) {
                assertEquals(0.0, diff, 1e-12, "llama3 rope does not depend on the length");
            } else {
                assertTrue(diff > 1e-3, c[1] + ": prefix logits unchanged by a longer forward");
            }
        }
    }

    @Test
    void mistralSlidingWindowHidesKeysOlderThanTheWindow(@TempDir Path dir) throws Exception {
        ObjectNode windowed = TinyHfFolders.config(Family.MISTRAL, Rope.DEFAULT, ConfigStyle.V4);
        ObjectNode full = windowed.deepCopy();
        full.putNull("sliding_window");
        double[][] a = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("w"), windowed, 4L)).logits(TOKENS);
        double[][] b = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("f"), full, 4L)).logits(TOKENS);
        // window 6: positions 0..5 see all their keys either way; from 6 on the oldest keys drop out
        assertEquals(0.0, maxAbsDiff(a, b, 6), 1e-12);
        assertTrue(Math.abs(a[6][0] - b[6][0]) + Math.abs(a[6][1] - b[6][1]) > 1e-6, "position 6 must lose key 0");
        // a window of at least the sequence length hides nothing
        windowed.put("sliding_window", TinyHfFolders.LONG_SEQUENCE);
        double[][] wide = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("wide"), windowed, 4L)).logits(TOKENS);
        assertEquals(0.0, maxAbsDiff(wide, b, TOKENS.length), 1e-12);
    }

    @Test
    void qwenSlidingWindowCountsOnlyWhenEnabled(@TempDir Path dir) throws Exception {
        ObjectNode disabled = TinyHfFolders.config(Family.QWEN2, Rope.DEFAULT, ConfigStyle.V4);
        ObjectNode enabled = disabled.deepCopy().put("use_sliding_window", true);
        ObjectNode absent = disabled.deepCopy();
        absent.remove(List.of("sliding_window", "use_sliding_window", "max_window_layers"));
        double[][] off = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("off"), disabled, 6L)).logits(TOKENS);
        double[][] on = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("on"), enabled, 6L)).logits(TOKENS);
        double[][] none = ReferenceDecoder.load(TinyHfFolders.write(dir.resolve("none"), absent, 6L)).logits(TOKENS);
        assertEquals(0.0, maxAbsDiff(off, none, TOKENS.length), 1e-12);
        assertTrue(maxAbsDiff(off, on, TOKENS.length) > 1e-3);
    }

    @Test
    void foldersHoldTheFamiliesRealTensorNamesAndShapes(@TempDir Path dir) throws Exception {
        Map<String, HostTensor> qwen3 = SafetensorsReader.read(TinyHfFolders.write(dir.resolve("q3"), Family.QWEN3, Rope.DEFAULT, ConfigStyle.V5, 1L).resolve("model.safetensors"));
        assertTrue(qwen3.get("model.layers.1.self_attn.q_proj.weight").hasShape(64, 32), "head_dim 16 x 4 heads from hidden 32");
        assertTrue(qwen3.get("model.layers.1.self_attn.k_proj.weight").hasShape(32, 32), "2 kv heads");
        assertTrue(qwen3.get("model.layers.0.self_attn.q_norm.weight").hasShape(16));
        assertTrue(!qwen3.containsKey("lm_head.weight"), "tied");
        Map<String, HostTensor> phi3 = SafetensorsReader.read(TinyHfFolders.write(dir.resolve("p3"), Family.PHI3, Rope.LONGROPE, ConfigStyle.V4, 1L).resolve("model.safetensors"));
        assertTrue(phi3.get("model.layers.0.self_attn.qkv_proj.weight").hasShape((4 + 2 * 2) * 16, 64));
        assertTrue(phi3.get("model.layers.0.mlp.gate_up_proj.weight").hasShape(2 * 96, 64));
        assertTrue(phi3.containsKey("lm_head.weight"));
        Map<String, HostTensor> qwen2 = SafetensorsReader.read(TinyHfFolders.write(dir.resolve("q2"), Family.QWEN2, Rope.YARN, ConfigStyle.V4, 1L).resolve("model.safetensors"));
        assertTrue(qwen2.containsKey("model.layers.0.self_attn.k_proj.bias") && !qwen2.containsKey("model.layers.0.self_attn.o_proj.bias"));
        String phiConfig = Files.readString(dir.resolve("p3/config.json"));
        assertTrue(phiConfig.contains("\"partial_rotary_factor\" : 0.75") && phiConfig.contains("\"long_factor\""), phiConfig);
    }

    @Test
    void aFolderWithAnUnexpectedOrMissingTensorIsRefusedByName(@TempDir Path dir) throws Exception {
        Path folder = TinyHfFolders.write(dir, Family.MISTRAL, Rope.DEFAULT, ConfigStyle.V4, 1L);
        Map<String, HostTensor> tensors = new LinkedHashMap<>(SafetensorsReader.read(folder.resolve("model.safetensors")));
        tensors.remove("model.norm.weight");
        tensors.put("model.layers.0.self_attn.q_proj.bias", new HostTensor(new long[] {32}, new float[32]));
        SafetensorsWriter.write(folder.resolve("model.safetensors"), tensors, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReferenceDecoder.load(folder));
        assertTrue(e.getMessage().contains("[model.norm.weight]") && e.getMessage().contains("[model.layers.0.self_attn.q_proj.bias]"), e.getMessage());
    }

    @Test
    void logitsOfAPrefixMatchAPrefixForAPlainCausalModel(@TempDir Path dir) throws Exception {
        ReferenceDecoder d = ReferenceDecoder.load(TinyHfFolders.write(dir, Family.QWEN3, Rope.DEFAULT, ConfigStyle.V4, 8L));
        double[][] whole = d.logits(TOKENS);
        assertArrayEquals(whole[9], d.logits(Arrays.copyOf(TOKENS, 10))[9], 1e-12);
    }
}
