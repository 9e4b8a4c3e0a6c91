package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.StepInputs;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One base per checkpoint per JVM: the learner's model and the engine's read the same weight arrays. */
class SharedBaseTest {

    @Test
    void holdersOfOneCheckpointShareTheBaseUntilTheLastReleasesIt(@TempDir Path dir) throws Exception {
        OpThreads.setIntraOp(1);
        Path folder = TinyHfFolder.write(dir.resolve("m"), TestModels.tinyQwen2(), 4L);
        PolicyModel learner = ModelLoader.shared(folder, null, ComputeDevice.cpu());
        learner.addLora(new LoraConfig(4, 8, 0, Set.of("q_proj", "v_proj")), 1L);
        PolicyModel served = ModelLoader.shared(folder, null, ComputeDevice.cpu());
        InferenceEngine engine = new InferenceEngine(served.transformer(), served.tokenizer(), 2);
        try {
            assertEquals(1, SharedBases.held());
            assertSame(learner.transformer(), served.transformer());
            List<NDArray> a = learner.transformer().weights().all();
            List<NDArray> b = served.transformer().weights().all();
            for (int i = 0; i < a.size(); i++) {
                assertSame(a.get(i), b.get(i), "base array " + i + " must be the same storage");
            }
            assertThrows(IllegalStateException.class, learner::trainAllParameters);
            float[] before = logits(learner);
            engine.close();
            served.close(); // the learner's hold keeps the base alive
            assertEquals(1, SharedBases.held());
            assertArrayEquals(before, logits(learner));
        } finally {
            learner.close();
        }
        assertEquals(0, SharedBases.held());
        try (PolicyModel again = ModelLoader.shared(folder, null, ComputeDevice.cpu())) {
            assertNotSame(learner.transformer(), again.transformer(), "a released base is loaded anew");
            assertEquals(1, SharedBases.held());
        }
        assertEquals(0, SharedBases.held());
    }

    @Test
    void aCheckpointRewrittenInPlaceIsNotServedStale(@TempDir Path dir) throws Exception {
        Path folder = TinyHfFolder.write(dir.resolve("m"), TestModels.tinyQwen2(), 4L);
        try (PolicyModel first = ModelLoader.shared(folder, null, ComputeDevice.cpu())) {
            float[] old = logits(first);
            TinyHfFolder.write(folder, TestModels.tinyQwen2(), 5L);
            java.nio.file.Files.setLastModifiedTime(folder.resolve("model.safetensors"),
                    java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 10_000));
            try (PolicyModel second = ModelLoader.shared(folder, null, ComputeDevice.cpu())) {
                assertNotSame(first.transformer(), second.transformer());
                assertEquals(2, SharedBases.held());
                assertFalse(Arrays.equals(old, logits(second)), "the rewritten weights must be the ones served");
            }
        }
    }

    private static float[] logits(PolicyModel m) {
        try (NDManager scope = m.transformer().manager().newSubManager()) {
            return m.transformer().forward(StepInputs.scoring(new int[][] {{1, 2, 3}}, new int[][] {{1, 1, 1}}), scope, null, null, false, false)
                    .toFloatArray();
        }
    }
}
