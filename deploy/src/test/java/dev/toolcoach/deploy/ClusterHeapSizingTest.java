package dev.toolcoach.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** cluster.sh sizes each node's heap from the model's f32 weight bytes and the node's role ({@code cluster.sh heap}). */
class ClusterHeapSizingTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    private record Result(int exitCode, String output) {
    }

    private Result heap(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", DeployFiles.deployDir().resolve("local/cluster.sh").toString(), "heap"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("TOOLCOACH_MODEL");
        builder.environment().put("TOOLCOACH_RUN_DIR", dir.resolve("run").toString());
        Process process = builder.start();
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroy();
            throw new AssertionError("cluster.sh heap did not finish in a minute");
        }
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
    }

    /** A model folder whose weights take {@code bytes} on disk (a sparse file: the sizing reads sizes only). */
    private Path folder(String name, String dtype, long... shardBytes) throws IOException {
        Path model = Files.createDirectories(dir.resolve(name));
        Files.writeString(model.resolve("config.json"), dtype == null ? "{\"model_type\": \"qwen2\"}"
                : "{\"model_type\": \"qwen2\", \"torch_dtype\": \"" + dtype + "\"}");
        for (int i = 0; i < shardBytes.length; i++) sparse(model.resolve("model-0000" + (i + 1) + ".safetensors"), shardBytes[i]);
        Files.writeString(model.resolve("tokenizer.json"), "{}"); // not weights: not counted
        return model;
    }

    private static Path sparse(Path file, long bytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        }
        return file;
    }

    @Test
    void aHalfPrecisionModelCountsItsWeightsWidenedToF32AcrossShards() throws Exception {
        // 1 GiB of bf16 in two shards = 2048 MiB of f32: coach 512 + 2048 (it writes full weights from the heap), athlete 512
        Result r = heap("--model", folder("bf16", "bfloat16", 600 * MIB, 424 * MIB).toString());
        assertEquals(0, r.exitCode(), r.output());
        assertEquals("coach 2560m\nathlete 512m\ntool 512m", r.output());
        assertEquals("coach 2560m\nathlete 512m\ntool 512m", heap("--model", folder("f16", "float16", 1024 * MIB).toString()).output());
    }

    @Test
    void anF32ModelCountsItsBytesAndSmallModelsKeepTheFloor() throws Exception {
        assertEquals("coach 712m\nathlete 512m\ntool 512m", heap("--model", folder("f32", "float32", 200 * MIB).toString()).output());
        assertEquals("coach 712m\nathlete 512m\ntool 512m", heap("--model", folder("untyped", null, 200 * MIB).toString()).output());
        assertEquals("coach 522m\nathlete 512m\ntool 512m", heap("--model", folder("tiny", "bfloat16", 5 * MIB).toString()).output());
        Path llama2c = sparse(dir.resolve("stories110M.bin"), 420 * MIB);
        assertEquals("coach 932m\nathlete 512m\ntool 512m", heap("--model", llama2c.toString()).output());
    }

    @Test
    void withoutAModelEveryNodeGets512MiBAndAnOverrideWins() throws Exception {
        assertEquals("coach 512m\nathlete 512m\ntool 512m", heap().output());
        Path model = folder("bf16", "bfloat16", 1024 * MIB);
        assertEquals("coach 6144m\nathlete 6144m\ntool 6144m", heap("--model", model.toString(), "--heap", "6g").output());
        assertEquals("coach 3000m\nathlete 3000m\ntool 3000m", heap("--heap", "3000m").output());
    }

    @Test
    void badInputIsOneLineAndExitsNonZero() throws Exception {
        Result missing = heap("--model", dir.resolve("none").toString());
        assertEquals(1, missing.exitCode());
        assertEquals("cluster.sh: --model " + dir.resolve("none") + ": no such folder or file", missing.output());
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Result noConfig = heap("--model", empty.toString());
        assertEquals("cluster.sh: --model " + empty + " has no config.json (not a model folder)", noConfig.output());
        Files.writeString(empty.resolve("config.json"), "{}");
        assertEquals("cluster.sh: --model " + empty + " has no *.safetensors weights", heap("--model", empty.toString()).output());
        Result badSize = heap("--heap", "lots");
        assertEquals(1, badSize.exitCode());
        assertTrue(badSize.output().startsWith("cluster.sh: --heap needs a size such as 4096m or 6g"), badSize.output());
    }
}
