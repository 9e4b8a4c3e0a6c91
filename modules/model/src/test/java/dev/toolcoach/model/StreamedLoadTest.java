package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.Llama2cCheckpoint;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Weights stream from the files into device arrays: the same values as the heap path, without a heap copy. */
class StreamedLoadTest {

    @Test
    void streamedWeightsEqualTheHeapPathForEveryFamily(@TempDir Path dir) throws IOException {
        try (NDManager root = TestModels.newRoot()) {
            for (Family family : Family.values()) {
                Path folder = TinyHfFolders.write(dir.resolve(family.name()), family, Rope.DEFAULT, ConfigStyle.V4, 3L);
                HfModelFolder.Contents heap = HfModelFolder.read(folder);
                HfModelFolder.Located located = HfModelFolder.locate(folder);
                try (Transformer a = Transformer.create(heap.config(), heap.tensors(), root);
                     Transformer b = Transformer.load(located.config(), located.tensors(), root)) {
                    assertSameWeights(family.name(), a.weights(), b.weights());
                }
            }
        }
    }

    @Test
    void llama2cStreamsAsItReadsToTheHeap() {
        Path bin = TestModels.sharedModels().resolve("stories260K.bin");
        Llama2cCheckpoint.Loaded heap = Llama2cCheckpoint.read(bin);
        try (NDManager root = TestModels.newRoot();
             Transformer a = Transformer.create(heap.config(), heap.tensors(), root);
             Transformer b = Transformer.load(heap.config(), Llama2cCheckpoint.locate(bin).tensors(), root)) {
            assertSameWeights("stories260K", a.weights(), b.weights());
        }
        // the permutation itself is held to llama2.c's own output by StoriesReferenceTest
    }

    @Test
    void aBf16FolderLoadsToF32LogitsCloseToTheF32Folder(@TempDir Path dir) throws IOException {
        try (NDManager root = TestModels.newRoot()) {
            for (Family family : Family.values()) {
                Path f32 = TinyHfFolders.write(dir.resolve(family.name()), family, Rope.DEFAULT, ConfigStyle.V4, 5L);
                Path bf16 = dir.resolve(family.name() + "-bf16");
                Files.createDirectories(bf16);
                for (String f : List.of("config.json", "tokenizer.json", "generation_config.json")) {
                    if (Files.exists(f32.resolve(f))) Files.copy(f32.resolve(f), bf16.resolve(f));
                }
                SafetensorsWriter.write(bf16.resolve("model.safetensors"), SafetensorsReader.read(f32.resolve("model.safetensors")),
                        Map.of("format", "pt"), StoredTensor.Dtype.BF16);
                assertEquals(StoredTensor.Dtype.BF16, SafetensorsReader.locate(bf16.resolve("model.safetensors")).values().iterator().next().dtype());
                HfModelFolder.Located a = HfModelFolder.locate(f32);
                HfModelFolder.Located b = HfModelFolder.locate(bf16);
                try (Transformer full = Transformer.load(a.config(), a.tensors(), root);
                     Transformer half = Transformer.load(b.config(), b.tensors(), root);
                     NDManager scope = root.newSubManager()) {
                    int[][] tokens = {{1, 5, 9, 2, 7, 3}};
                    int[][] attention = {{1, 1, 1, 1, 1, 1}};
                    float[] x = full.forward(StepInputs.scoring(tokens, attention), scope, null, null, false, false).toFloatArray();
                    float[] y = half.forward(StepInputs.scoring(tokens, attention), scope, null, null, false, false).toFloatArray();
                    double scale = 0;
                    double worst = 0;
                    for (int i = 0; i < x.length; i++) {
                        scale = Math.max(scale, Math.abs(x[i]));
                        worst = Math.max(worst, Math.abs(x[i] - y[i]));
                    }
                    // bf16 keeps 8 bits of mantissa: weights move by up to 2^-9 relative
                    assertTrue(worst > 0, family + ": the bf16 folder must really be rounded");
                    assertTrue(worst < 0.05 * scale, family + ": bf16 logits off by " + worst + " at scale " + scale);
                }
            }
        }
    }

    /**
     * A folder of 84 MB of f32 weights loads in a JVM with a 32 MiB heap: any full heap copy of a weight set this size
     * would throw OutOfMemoryError. The child reports its peak heap use, which must stay a small fraction of the folder.
     */
    @Test
    void aFolderLargerThanTheHeapLoadsWithASmallPeakHeap(@TempDir Path dir) throws Exception {
        ModelConfig config = ModelConfig.llama(512, 1536, 4, 8, 4, 8192, 256);
        HfModelFolder.write(dir, config, ModelWeights.randomHf(config, 7));
        long bytes = Files.size(dir.resolve("model.safetensors"));
        assertTrue(bytes > 64L << 20, "the folder must be larger than the child's heap: " + bytes);
        Path out = dir.resolve("child.out");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx32m",
                "-DDJL_OFFLINE=true", "-DOPT_OUT_TRACKING=true", "-cp", System.getProperty("java.class.path"),
                SmallHeapLoad.class.getName(), dir.toString())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child did not finish in 120 s");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        String line = text.lines().filter(l -> l.startsWith("peak heap bytes ")).findFirst().orElseThrow(() -> new AssertionError(text));
        long peak = Long.parseLong(line.substring("peak heap bytes ".length()).trim());
        assertTrue(peak < bytes / 3, "peak heap " + peak + " for a folder of " + bytes + " bytes");
    }

    /** The child: locate and stream the folder, run one forward, print the peak heap use. */
    public static final class SmallHeapLoad {
        public static void main(String[] args) {
            Path dir = Path.of(args[0]);
            try (NDManager root = NDManager.newBaseManager()) {
                HfModelFolder.Located located = HfModelFolder.locate(dir);
                try (Transformer t = Transformer.load(located.config(), located.tensors(), root); NDManager scope = root.newSubManager()) {
                    NDArray logits = t.forward(StepInputs.scoring(new int[][] {{1, 2, 3}}, new int[][] {{1, 1, 1}}), scope, null, null, false, true);
                    if (logits.getShape().get(2) != located.config().vocabSize()) throw new IllegalStateException("bad logits");
                }
            }
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
            }
            System.out.println("peak heap bytes " + peak);
        }
    }

    private static void assertSameWeights(String what, ModelWeights a, ModelWeights b) {
        List<NDArray> x = a.all();
        List<NDArray> y = b.all();
        assertEquals(x.size(), y.size(), what);
        for (int i = 0; i < x.size(); i++) {
            assertEquals(x.get(i).getShape(), y.get(i).getShape(), what + " array " + i);
            assertArrayEquals(x.get(i).toFloatArray(), y.get(i).toFloatArray(), what + " array " + i);
        }
    }
}
