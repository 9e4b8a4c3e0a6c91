package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.chat.ChatMlTemplate;
import dev.toolcoach.model.io.ChatTemplates;
import dev.toolcoach.chat.Llama3Template;
import dev.toolcoach.model.config.ModelFamily;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.model.lora.AdapterMerge;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.reference.ReferenceDecoder;
import dev.toolcoach.model.reference.TinyHfFolders;
import dev.toolcoach.model.reference.TinyHfFolders.ConfigStyle;
import dev.toolcoach.model.reference.TinyHfFolders.Family;
import dev.toolcoach.model.reference.TinyHfFolders.Rope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hugging Face folders of every family: loaded, saved back in their own layout, and refused by tensor name when they do not fit. */
class FamilyFolderTest {
    private static NDManager root;

    @BeforeAll
    static void setUp() {
        root = TestModels.newRoot();
    }

    @AfterAll
    static void tearDown() {
        root.close();
    }

    @Test
    void everyFamilySavesBackInItsOwnLayoutAndTheReferenceReadsIt(@TempDir Path tmp) throws Exception {
        int[] tokens = {3, 17, 4, 60, 9, 22, 41, 8};
        for (Family family : Family.values()) {
            Rope rope = family == Family.PHI3 ? Rope.LONGROPE : family == Family.LLAMA ? Rope.LLAMA3 : Rope.YARN;
            Path original = TinyHfFolders.write(tmp.resolve(family + "-a"), family, rope, ConfigStyle.V5, 4L);
            Path saved = tmp.resolve(family + "-b");
            try (PolicyModel m = ModelLoader.load(original, null, root)) {
                assertEquals(ModelFamily.of(family.modelType), m.config().family());
                HfModelFolder.write(saved, m.config(), m.transformer().weights().toHf(m.config()));
                assertEquals(m.config(), HfModelFolder.read(saved).config(), family + ": config.json reads back as the same config");
            }
            Map<String, HostTensor> before = SafetensorsReader.read(original.resolve("model.safetensors"));
            Map<String, HostTensor> after = SafetensorsReader.read(saved.resolve("model.safetensors"));
            assertEquals(before.keySet(), after.keySet(), family + ": the same tensor names (Phi-3 fused again)");
            for (String name : before.keySet()) {
                assertArrayEquals(before.get(name).data(), after.get(name).data(), 0f, family + " " + name);
            }
            // the independent reader takes the written config.json for the same model
            double[][] a = ReferenceDecoder.load(original).logits(tokens);
            double[][] b = ReferenceDecoder.load(saved).logits(tokens);
            for (int i = 0; i < tokens.length; i++) {
                assertArrayEquals(a[i], b[i], 1e-6, family + " position " + i);
            }
        }
    }

    @Test
    void aLoraAdapterOnEveryProjectionMergesIntoEachFamilysOwnFolder(@TempDir Path tmp) throws Exception {
        int[][] tokens = {{3, 17, 4, 60, 9, 22, 41, 8, 30, 1}};
        int[][] mask = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
        for (Family family : new Family[] {Family.QWEN3, Family.PHI3}) { // head_dim != hidden/heads; fused projections
            Path base = TinyHfFolders.write(tmp.resolve(family + "-base"), family, Rope.DEFAULT, ConfigStyle.V4, 6L);
            try (PolicyModel m = ModelLoader.load(base, null, root)) {
                m.addLora(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")), 2L);
                AdapterWeights trained = TestAdapters.perturbed(m.snapshotAdapter(), 17L, 0.05f, false, 3);
                m.restoreAdapter(trained);
                float[] adapted;
                float[] plain;
                try (NDManager scope = root.newSubManager()) {
                    adapted = m.score(scope, tokens, mask, true, false).logprobs().toFloatArray();
                    plain = m.score(scope, tokens, mask, false, false).logprobs().toFloatArray();
                }
                assertTrue(maxDiff(adapted, plain) > 1e-3, family + ": the adapter changes the model");
                HfModelFolder.write(tmp.resolve(family + "-merged"), m.config(),
                        AdapterMerge.merge(m.config(), m.transformer().weights().toHf(m.config()), trained));
                Files.copy(base.resolve("tokenizer.json"), tmp.resolve(family + "-merged/tokenizer.json"));
                try (PolicyModel merged = ModelLoader.load(tmp.resolve(family + "-merged"), null, root);
                     NDManager scope = root.newSubManager()) {
                    assertArrayEquals(adapted, merged.score(scope, tokens, mask, false, false).logprobs().toFloatArray(), 1e-4f, family.toString());
                }
            }
        }
    }

    private static double maxDiff(float[] a, float[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    @Test
    void aFolderWithoutATemplateFallsBackToItsFamilysBuiltInOneOrIsRefused(@TempDir Path tmp) throws Exception {
        Path qwen3 = TinyHfFolders.write(tmp.resolve("q3"), Family.QWEN3, Rope.DEFAULT, ConfigStyle.V4, 1L);
        assertInstanceOf(ChatMlTemplate.class, ChatTemplates.forFolder(qwen3));
        Path llama = TinyHfFolders.write(tmp.resolve("l"), Family.LLAMA, Rope.DEFAULT, ConfigStyle.V4, 1L);
        assertInstanceOf(Llama3Template.class, ChatTemplates.forFolder(llama));
        Path phi3 = TinyHfFolders.write(tmp.resolve("p3"), Family.PHI3, Rope.DEFAULT, ConfigStyle.V4, 1L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChatTemplates.forFolder(phi3));
        assertEquals("model_type phi3 has no built-in chat template: the model folder needs its own"
                + " (tokenizer_config.json or chat_template.jinja)", e.getMessage());
    }

    private static Path mistral(Path dir) throws Exception {
        return TinyHfFolders.write(dir, Family.MISTRAL, Rope.DEFAULT, ConfigStyle.V4, 1L);
    }

    private static ModelLoadException refused(Path dir) {
        return assertThrows(ModelLoadException.class, () -> ModelLoader.load(dir, null, root).close());
    }

    private static void rewrite(Path dir, java.util.function.Consumer<Map<String, HostTensor>> edit) throws Exception {
        Path file = dir.resolve("model.safetensors");
        Map<String, HostTensor> t = new LinkedHashMap<>(SafetensorsReader.read(file));
        edit.accept(t);
        SafetensorsWriter.write(file, t, Map.of("format", "pt"));
    }

    @Test
    void anUnexpectedTensorIsRefusedByNameAndFile(@TempDir Path tmp) throws Exception {
        Path dir = mistral(tmp);
        rewrite(dir, t -> t.put("model.layers.0.self_attn.q_proj.bias", new HostTensor(new long[] {32}, new float[32])));
        assertEquals(dir.resolve("model.safetensors") + ": unexpected tensor 'model.layers.0.self_attn.q_proj.bias'"
                + " (a mistral model with this config.json has no such weight)", refused(dir).getMessage());
    }

    @Test
    void aMissingTensorIsRefusedByNameAndFile(@TempDir Path tmp) throws Exception {
        Path dir = mistral(tmp);
        rewrite(dir, t -> t.remove("model.layers.1.post_attention_layernorm.weight"));
        assertEquals(dir.resolve("model.safetensors") + ": tensor 'model.layers.1.post_attention_layernorm.weight' is missing",
                refused(dir).getMessage());
    }

    @Test
    void aTiedHeadMayRepeatTheEmbeddingButNotDifferFromIt(@TempDir Path tmp) throws Exception {
        Path dir = TinyHfFolders.write(tmp, Family.QWEN3, Rope.DEFAULT, ConfigStyle.V4, 1L);
        rewrite(dir, t -> {
            t.put("lm_head.weight", t.get("model.embed_tokens.weight"));
            t.put("model.layers.0.self_attn.rotary_emb.inv_freq", new HostTensor(new long[] {8}, new float[8]));
        });
        ModelLoader.load(dir, null, root).close(); // a duplicate head and a RoPE buffer are what Transformers skips too
        rewrite(dir, t -> t.put("lm_head.weight", new HostTensor(t.get("lm_head.weight").shape(), new float[t.get("lm_head.weight").data().length])));
        assertTrue(refused(dir).getMessage().endsWith("unexpected tensor 'lm_head.weight' (a qwen3 model with this config.json has no such weight:"
                + " tie_word_embeddings is true)"));
    }

    @Test
    void aShardedCheckpointNamesTheShardOfAMisshapenTensor(@TempDir Path tmp) throws Exception {
        Path dir = mistral(tmp);
        Map<String, HostTensor> all = SafetensorsReader.read(dir.resolve("model.safetensors"));
        Files.delete(dir.resolve("model.safetensors"));
        Map<String, HostTensor> first = new LinkedHashMap<>();
        Map<String, HostTensor> second = new LinkedHashMap<>();
        StringBuilder index = new StringBuilder("{\"weight_map\": {");
        for (Map.Entry<String, HostTensor> e : all.entrySet()) {
            boolean late = e.getKey().startsWith("model.layers.1.");
            (late ? second : first).put(e.getKey(), e.getKey().equals("model.layers.1.mlp.up_proj.weight")
                    ? new HostTensor(new long[] {63, 32}, new float[63 * 32]) : e.getValue());
            index.append(first.size() + second.size() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": \"")
                    .append(late ? "model-2.safetensors" : "model-1.safetensors").append('"');
        }
        SafetensorsWriter.write(dir.resolve("model-1.safetensors"), first, Map.of("format", "pt"));
        SafetensorsWriter.write(dir.resolve("model-2.safetensors"), second, Map.of("format", "pt"));
        Files.writeString(dir.resolve("model.safetensors.index.json"), index.append("}}").toString());
        assertEquals(dir.resolve("model-2.safetensors") + ": tensor 'model.layers.1.mlp.up_proj.weight' has shape [63, 32]"
                + " but the config needs [64, 32]", refused(dir).getMessage());
    }
}
