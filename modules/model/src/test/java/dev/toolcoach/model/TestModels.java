package dev.toolcoach.model;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.config.ModelConfig;
import java.nio.file.Files;
import java.nio.file.Path;

/** Shared fixtures: the shared-data location and small random model configs. */
final class TestModels {
    private TestModels() {
    }

    /**
     * A root manager, with one intra-op thread on this (the test) thread: on a shared 2-core machine two OpenMP
     * threads collapse when other processes compete, and one is as fast for these tiny models.
     */
    static NDManager newRoot() {
        OpThreads.setIntraOp(1);
        return NDManager.newBaseManager();
    }

    /** ../shared/data/models, or the test is skipped with a message saying why. */
    static Path sharedModels() {
        String root = System.getProperty("toolcoach.shared.data");
        Path dir = root == null ? null : Path.of(root, "models");
        assumeTrue(dir != null && Files.isRegularFile(dir.resolve("stories260K.bin")),
                "shared data absent (system property toolcoach.shared.data=" + root + "): stories260K test skipped");
        return dir;
    }

    /** A tiny GQA Llama: 2 layers, dim 32, 4 heads, 2 kv heads, vocab 64. */
    static ModelConfig tinyLlama() {
        return ModelConfig.llama(32, 48, 2, 4, 2, 64, 128);
    }

    /** A tiny Qwen2: q/k/v bias, tied embeddings, rope theta 1e6. */
    static ModelConfig tinyQwen2() {
        return new ModelConfig("qwen2", 32, 48, 2, 4, 2, 64, 128, 1e-6f, 1_000_000f, true, true);
    }
}
