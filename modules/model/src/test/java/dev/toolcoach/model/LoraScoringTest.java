package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.KvSlots;
import dev.toolcoach.model.nn.StepInputs;
import java.util.HashMap;
import java.util.Map;
import java.util.Arrays;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LoraScoringTest {
    private static NDManager root;
    private static PolicyModel policy;
    private static final int[][] TOKENS = {{1, 5, 9, 13, 22, 40, 7, 3}, {1, 60, 2, 33, 33, 8, 0, 0}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 0, 0}};

    @BeforeAll
    static void setUp() {
        root = TestModels.newRoot();
        policy = PolicyModel.random(TestModels.tinyLlama(), 7L, null, root);
        policy.addLora(new LoraConfig(4, 8f, 0f, Set.copyOf(LoraConfig.ALL_TARGETS)), 11L);
    }

    @AfterAll
    static void tearDown() {
        policy.close();
        root.close();
    }

    private static float[] scores(boolean adapter) {
        try (NDManager scope = root.newSubManager()) {
            return policy.score(scope, TOKENS, MASK, adapter, false).logprobs().toFloatArray();
        }
    }

    @Test
    void freshAdapterChangesNothingAndCanBeSwitchedOffPerCall() {
        AdapterWeights fresh = policy.snapshotAdapter();
        try {
            float[] base = scores(false);
            assertArrayEquals(base, scores(true), 1e-6f);
            policy.restoreAdapter(TestAdapters.perturbed(fresh, 3, 0.05f, true, fresh.version() + 1));
            float[] adapted = scores(true);
            assertFalse(maxAbsDiff(base, adapted) < 1e-3, "a non-zero B must change the scores");
            assertArrayEquals(base, scores(false), 0f, "adapter off must be exactly the base model");
        } finally {
            policy.restoreAdapter(fresh);
        }
    }

    @Test
    void gradientsReachOnlyTheAdapter() {
        AdapterWeights fresh = policy.snapshotAdapter();
        try (NDManager scope = root.newSubManager()) {
            policy.restoreAdapter(TestAdapters.perturbed(fresh, 5, 0.05f, true, fresh.version() + 1));
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray loss = policy.score(scope, TOKENS, MASK, true, true).logprobs().sum().neg();
                gc.backward(loss);
            }
            for (NDArray p : policy.trainableParameters()) {
                assertTrue(p.getGradient().abs().sum().getFloat() > 0, "every LoRA matrix gets a gradient");
            }
            assertFalse(policy.transformer().weights().embedding().hasGradient(), "base weights stay frozen");
        } finally {
            policy.restoreAdapter(fresh);
        }
    }

    @Test
    void snapshotRestoreRoundTripsValuesAndVersion() {
        AdapterWeights fresh = policy.snapshotAdapter();
        AdapterWeights changed = TestAdapters.perturbed(fresh, 9, 0.05f, true, fresh.version() + 1);
        policy.restoreAdapter(changed);
        AdapterWeights back = policy.snapshotAdapter();
        assertEquals(changed.version(), policy.version());
        for (String name : changed.tensors().keySet()) {
            assertArrayEquals(changed.tensors().get(name).data(), back.tensors().get(name).data(), name);
        }
        assertTrue(back.tensors().containsKey("base_model.model.model.layers.1.mlp.down_proj.lora_B.weight"));
        policy.restoreAdapter(fresh);
        Map<String, HostTensor> broken = new HashMap<>(fresh.tensors());
        broken.remove("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> policy.restoreAdapter(new AdapterWeights(fresh.config(), 1, broken)));
        assertTrue(e.getMessage().contains("q_proj.lora_A.weight"), e.getMessage());
    }

    @Test
    void teacherForcedScoresEqualIncrementalDecodeAndIgnorePadding() {
        float[] batch = scores(false);
        int len = TOKENS[0].length;
        // row 1 alone, left-padded instead of right-padded: same log-probs at its real positions
        int[][] left = {{0, 0, 1, 60, 2, 33, 33, 8}};
        int[][] leftMask = {{0, 0, 1, 1, 1, 1, 1, 1}};
        float[] leftScores;
        try (NDManager scope = root.newSubManager()) {
            leftScores = policy.score(scope, left, leftMask, false, false).logprobs().toFloatArray();
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(batch[(len - 1) + i], leftScores[2 + i], 1e-4f, "position " + i);
        }
        // row 0 decoded token by token through the KV cache gives the same next-token log-probs
        try (KvSlots cache = new KvSlots(policy.config(), root, 1, policy.transformer().dtype())) {
            for (int i = 0; i < len - 1; i++) {
                try (NDManager scope = root.newSubManager()) {
                    NDArray logits = policy.transformer().forward(StepInputs.slotted(new int[][] {{TOKENS[0][i]}}, new int[] {0},
                            new int[] {i}), scope, cache, null, false, true);
                    float lp = logits.logSoftmax(2).toFloatArray()[TOKENS[0][i + 1]];
                    assertEquals(batch[i], lp, 1e-4f, "cached position " + i);
                }
            }
        }
    }

    @Test
    void outOfRangeTokensAndPositionsAreClearErrors() {
        try (NDManager scope = root.newSubManager()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> policy.score(scope, new int[][] {{1, 64}}, new int[][] {{1, 1}}, false, false));
            assertTrue(e.getMessage().contains("token id 64 is outside the vocabulary of 64"), e.getMessage());
            int[][] tooLong = {new int[policy.config().maxSeqLen() + 1]};
            int[][] ones = {new int[tooLong[0].length]};
            Arrays.fill(ones[0], 1);
            e = assertThrows(IllegalArgumentException.class, () -> policy.score(scope, tooLong, ones, false, false));
            assertTrue(e.getMessage().contains("beyond the model's context of 128"), e.getMessage());
        }
    }

    private static float maxAbsDiff(float[] a, float[] b) {
        float m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }
}
