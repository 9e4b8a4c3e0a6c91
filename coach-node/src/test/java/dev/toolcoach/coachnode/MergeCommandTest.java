package dev.toolcoach.coachnode;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.testkit.TestAdapters;
import dev.toolcoach.testkit.TinyChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code coach-node merge}: the merged folder scores as the base with its adapter does. */
class MergeCommandTest {
    private static final LoraConfig LORA = new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj", "down_proj"));
    private static final int[][] TOKENS = {{3, 17, 4, 60, 9, 22, 41, 8, 30, 1}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};

    @Test
    void theMergedFolderScoresAsTheBaseWithItsAdapterAndKeepsTheTokenizer(@TempDir Path dir) throws Exception {
        Path base = TinyChatModel.write(dir.resolve("base"), 7);
        AdapterWeights adapter = TestAdapters.random(TinyChatModel.config(), LORA, 5, 11);
        PeftAdapterIo.save(dir.resolve("adapter"), adapter);

        CliRun run = new CliRun();
        int code = run.execute("merge", "--model", base.toString(), "--adapter", dir.resolve("adapter").toString(),
                "--out", dir.resolve("merged").toString());

        assertEquals(0, code, run.err.toString());
        assertTrue(run.out.toString().contains("(version 5)"), run.out.toString());
        assertEquals(Files.readString(base.resolve("tokenizer.json")), Files.readString(dir.resolve("merged/tokenizer.json")));
        try (NDManager root = ComputeDevice.cpu().newManager();
             PolicyModel adapted = ModelLoader.load(base, null, root);
             PolicyModel merged = ModelLoader.load(dir.resolve("merged"), null, root)) {
            adapted.setAdapter(LoraAdapter.fromWeights(adapter, adapted.config(), root));
            float[] expected = scores(adapted, root, true);
            float[] plain = scores(adapted, root, false);
            assertFalse(java.util.Arrays.equals(expected, plain), "the adapter changes the model");
            assertArrayEquals(expected, scores(merged, root, false), 1e-4f);
        }
    }

    @Test
    void anAdapterOfAnotherShapeOrAnExistingOutputFolderIsOneLineAndExit2(@TempDir Path dir) throws Exception {
        Path base = TinyChatModel.write(dir.resolve("base"), 7);
        ModelConfig wider = new ModelConfig("qwen2", 64, 48, 2, 4, 2, TinyChatModel.VOCAB, 4096, 1e-6f, 1_000_000f, false, true);
        PeftAdapterIo.save(dir.resolve("adapter"), TestAdapters.random(wider, LORA, 1, 11));

        CliRun misfit = new CliRun();
        assertEquals(2, misfit.execute("merge", "--model", base.toString(), "--adapter", dir.resolve("adapter").toString(),
                "--out", dir.resolve("merged").toString()));
        assertEquals("merge: the adapter's q_proj of layer 0 (A [4, 64], B [64, 4]) does not fit "
                + "model.layers.0.self_attn.q_proj.weight [32, 32]", misfit.err.toString().strip());
        assertFalse(Files.exists(dir.resolve("merged")), "nothing written");

        CliRun taken = new CliRun();
        assertEquals(2, taken.execute("merge", "--model", base.toString(), "--adapter", dir.resolve("adapter").toString(),
                "--out", base.toString()));
        assertEquals("merge: " + base + " already exists", taken.err.toString().strip());
    }

    private static float[] scores(PolicyModel model, NDManager root, boolean useAdapter) {
        try (NDManager scope = root.newSubManager()) {
            return model.score(scope, TOKENS, MASK, useAdapter, false).logprobs().toFloatArray();
        }
    }
}
