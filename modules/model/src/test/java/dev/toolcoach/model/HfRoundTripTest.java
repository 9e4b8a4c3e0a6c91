package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import dev.toolcoach.model.io.ChatTemplates;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.io.SafetensorsWriter;
import dev.toolcoach.model.lora.AdapterMerge;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.trace.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HfRoundTripTest {
    private static final int[][] TOKENS = {{1, 5, 9, 13, 22, 40, 7, 3, 63, 12}};
    private static final int[][] MASK = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
    private static NDManager root;

    @BeforeAll
    static void setUp() {
        root = TestModels.newRoot();
    }

    @AfterAll
    static void tearDown() {
        root.close();
    }

    private static float[] scores(PolicyModel m, boolean adapter) {
        try (NDManager scope = root.newSubManager()) {
            return m.score(scope, TOKENS, MASK, adapter, false).logprobs().toFloatArray();
        }
    }

    @Test
    void tinyLlamaSavesAndLoadsWithIdenticalOutputs(@TempDir Path dir) throws Exception {
        roundTrip(TestModels.tinyLlama(), dir);
    }

    @Test
    void tinyQwen2WithBiasAndTiedEmbeddingsSavesAndLoadsWithIdenticalOutputs(@TempDir Path dir) throws Exception {
        roundTrip(TestModels.tinyQwen2(), dir);
    }

    private static void roundTrip(ModelConfig config, Path dir) throws Exception {
        TinyHfFolder.write(dir.resolve("a"), config, 21L);
        try (PolicyModel a = ModelLoader.load(dir.resolve("a"), null, root)) {
            assertEquals(config, a.config());
            assertEquals(Set.of(2), a.source().eosTokenIds());
            assertEquals(0.7f, a.source().temperature().orElseThrow(), 1e-6f);
            assertArrayEquals(new int[] {5, 9, 0}, a.tokenizer().encode("w5 w9 unknown"));
            HfModelFolder.write(dir.resolve("b"), a.config(), a.transformer().weights().toHf(a.config()));
            Files.copy(dir.resolve("a/tokenizer.json"), dir.resolve("b/tokenizer.json"));
            try (PolicyModel b = ModelLoader.load(dir.resolve("b"), null, root)) {
                assertArrayEquals(scores(a, false), scores(b, false), 0f);
            }
        }
    }

    @Test
    void peftAdapterRoundTripsAndMergesIntoTheBaseWeights(@TempDir Path dir) throws Exception {
        ModelConfig config = TestModels.tinyQwen2();
        TinyHfFolder.write(dir.resolve("base"), config, 4L);
        try (PolicyModel m = ModelLoader.load(dir.resolve("base"), null, root)) {
            m.addLora(new LoraConfig(4, 8f, 0.1f, Set.of("q_proj", "k_proj", "o_proj", "up_proj", "down_proj")), 2L);
            AdapterWeights trained = TestAdapters.perturbed(m.snapshotAdapter(), 17L, 0.05f, false, 3);
            m.restoreAdapter(trained);
            PeftAdapterIo.save(dir.resolve("adapter"), trained);
            assertTrue(Files.readString(dir.resolve("adapter/adapter_config.json")).contains("\"lora_alpha\""));
            AdapterWeights loaded = PeftAdapterIo.load(dir.resolve("adapter"));
            assertEquals(trained.config(), loaded.config());
            assertEquals(trained.version(), loaded.version());
            float[] adapted = scores(m, true);
            m.setAdapter(LoraAdapter.fromWeights(loaded, config, root));
            assertArrayEquals(adapted, scores(m, true), 0f);

            Map<String, HostTensor> merged = AdapterMerge.merge(config, m.transformer().weights().toHf(config), loaded);
            HfModelFolder.write(dir.resolve("merged"), config, merged);
            Files.copy(dir.resolve("base/tokenizer.json"), dir.resolve("merged/tokenizer.json"));
            try (PolicyModel mergedModel = ModelLoader.load(dir.resolve("merged"), null, root)) {
                assertArrayEquals(adapted, scores(mergedModel, false), 1e-4f);
            }
        }
    }

    @Test
    void shardedCheckpointLoadsLikeASingleFile(@TempDir Path dir) throws Exception {
        ModelConfig config = TestModels.tinyLlama();
        TinyHfFolder.write(dir.resolve("single"), config, 13L);
        Path sharded = Files.createDirectories(dir.resolve("sharded"));
        for (String f : List.of("config.json", "tokenizer.json", "generation_config.json")) {
            Files.copy(dir.resolve("single").resolve(f), sharded.resolve(f));
        }
        Map<String, HostTensor> all = SafetensorsReader.read(dir.resolve("single/model.safetensors"));
        Map<String, HostTensor> first = new LinkedHashMap<>();
        Map<String, HostTensor> second = new LinkedHashMap<>();
        StringBuilder index = new StringBuilder("{\"metadata\": {}, \"weight_map\": {");
        for (Map.Entry<String, HostTensor> e : all.entrySet()) {
            boolean early = e.getKey().startsWith("model.layers.0.") || e.getKey().startsWith("model.embed");
            (early ? first : second).put(e.getKey(), e.getValue());
            index.append(first.size() + second.size() > 1 ? "," : "").append('"').append(e.getKey()).append("\": \"")
                    .append(early ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors").append('"');
        }
        SafetensorsWriter.write(sharded.resolve("model-00001-of-00002.safetensors"), first, Map.of());
        SafetensorsWriter.write(sharded.resolve("model-00002-of-00002.safetensors"), second, Map.of());
        Files.writeString(sharded.resolve("model.safetensors.index.json"), index.append("}}").toString());
        try (PolicyModel a = ModelLoader.load(dir.resolve("single"), null, root);
             PolicyModel b = ModelLoader.load(sharded, null, root)) {
            assertArrayEquals(scores(a, false), scores(b, false), 0f);
        }
    }

    @Test
    void folderChatTemplateIsUsedWhenPresent(@TempDir Path dir) throws Exception {
        TinyHfFolder.write(dir, TestModels.tinyQwen2(), 1L);
        Files.writeString(dir.resolve("tokenizer_config.json"),
                "{\"chat_template\": \"{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\\n{% endfor %}\"}");
        try (PolicyModel m = ModelLoader.load(dir, null, root)) {
            assertEquals("[user] hi\n", ChatTemplates.forModel(m).render(List.of(Message.user("hi")), true));
        }
    }

    @Test
    void allParametersTrainableForAModelTrainedFromScratch() {
        try (NDManager scope = root.newSubManager(); PolicyModel m = PolicyModel.random(TestModels.tinyQwen2(), 3L, null, root)) {
            m.trainAllParameters();
            try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                gc.backward(m.score(scope, TOKENS, MASK, false, true).logprobs().sum().neg());
            }
            assertEquals(m.transformer().weights().all().size(), m.trainableParameters().size());
            for (NDArray p : m.trainableParameters()) {
                assertTrue(p.getGradient().abs().sum().getFloat() > 0, "every weight, tied embedding included, gets a gradient");
            }
        }
    }

    @Test
    void randomInitIsReproducibleFromTheSeed() {
        ModelConfig c = TestModels.tinyLlama();
        assertArrayEquals(ModelWeights.randomHf(c, 5L).get("lm_head.weight").data(), ModelWeights.randomHf(c, 5L).get("lm_head.weight").data());
    }
}
