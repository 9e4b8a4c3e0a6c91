package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.io.SafetensorsReader;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every bad input is a ModelLoadException naming the file and the problem, and leaves nothing allocated. */
class BadInputTest {
    private static NDManager root;

    @BeforeAll
    static void setUp() {
        root = TestModels.newRoot();
    }

    @AfterAll
    static void tearDown() {
        root.close();
    }

    private static void assertLoadFails(Path model, Path tokenizer, Path namedFile, String problem) {
        long before = root.getManagedArrays().size();
        ModelLoadException e = assertThrows(ModelLoadException.class, () -> ModelLoader.load(model, tokenizer, root).close());
        assertTrue(e.getMessage().startsWith(namedFile.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertTrue(root.getManagedArrays().size() == before, "nothing half-loaded stays on the device");
    }

    private static Path tinyFolder(Path dir) throws IOException {
        return TinyHfFolder.write(dir, TestModels.tinyLlama(), 1L);
    }

    @Test
    void missingFiles(@TempDir Path tmp) throws IOException {
        assertLoadFails(tmp.resolve("absent.bin"), null, tmp.resolve("absent.bin"), "file not found");
        Path dir = tinyFolder(tmp.resolve("m"));
        Files.delete(dir.resolve("model.safetensors"));
        assertLoadFails(dir, null, dir.resolve("model.safetensors"), "file not found");
    }

    @Test
    void unsupportedArchitecture(@TempDir Path tmp) throws IOException {
        Path dir = tinyFolder(tmp);
        Path config = dir.resolve("config.json");
        Files.writeString(config, Files.readString(config).replace("\"llama\"", "\"gpt2\""));
        assertLoadFails(dir, null, config, "unsupported model_type 'gpt2' (supported: llama, qwen2, qwen3, mistral, phi3)");
        Files.writeString(config, Files.readString(config).replace("\"gpt2\"", "\"llama\", \"rope_scaling\": {\"type\": \"su\", \"factor\": 2}"));
        assertLoadFails(dir, null, config, "rope_scaling.rope_type 'su' is not supported");
    }

    @Test
    void configAndTensorShapesDisagree(@TempDir Path tmp) throws IOException {
        Path dir = tinyFolder(tmp);
        Path config = dir.resolve("config.json");
        Files.writeString(config, Files.readString(config).replace("\"intermediate_size\" : 48", "\"intermediate_size\" : 40"));
        assertLoadFails(dir, null, dir.resolve("model.safetensors"),
                "tensor 'model.layers.0.mlp.gate_proj.weight' has shape [48, 32] but the config needs [40, 32]");
    }

    @Test
    void truncatedAndCorruptSafetensors(@TempDir Path tmp) throws IOException {
        Path dir = tinyFolder(tmp);
        Path weights = dir.resolve("model.safetensors");
        byte[] full = Files.readAllBytes(weights);
        Files.write(weights, Arrays.copyOf(full, full.length - 100));
        assertLoadFails(dir, null, weights, "truncated safetensors");
        byte[] corrupt = full.clone();
        corrupt[8] = '#'; // the header's opening brace
        Files.write(weights, corrupt);
        assertLoadFails(dir, null, weights, "header is not valid JSON at column 2");
        Files.write(weights, new byte[] {1, 2, 3});
        assertLoadFails(dir, null, weights, "no header length");
        assertThrows(ModelLoadException.class, () -> SafetensorsReader.read(tmp.resolve("none.safetensors")));
    }

    @Test
    void tokenizerDoesNotMatchTheVocabulary(@TempDir Path tmp) throws IOException {
        Path dir = tinyFolder(tmp);
        TinyHfFolder.writeTokenizer(dir.resolve("tokenizer.json"), 100);
        assertLoadFails(dir, null, dir.resolve("tokenizer.json"), "ids up to 99 but the model's vocabulary size is 64");
    }

    @Test
    void llama2cTokenizerWithTheWrongTokenCount() {
        Path models = TestModels.sharedModels();
        ModelLoadException e = assertThrows(ModelLoadException.class, () -> Llama2cTokenizer.read(models.resolve("tok512.bin"), 500));
        assertTrue(e.getMessage().contains("more tokens than the model's vocabulary size 500"), e.getMessage());
        e = assertThrows(ModelLoadException.class, () -> Llama2cTokenizer.read(models.resolve("tok512.bin"), 600));
        assertTrue(e.getMessage().contains("fewer tokens"), e.getMessage());
    }

    @Test
    void truncatedLlama2cCheckpoint(@TempDir Path tmp) throws IOException {
        Path models = TestModels.sharedModels();
        Path cut = tmp.resolve("cut.bin");
        byte[] full = Files.readAllBytes(models.resolve("stories260K.bin"));
        Files.write(cut, Arrays.copyOf(full, full.length / 2));
        assertLoadFails(cut, models.resolve("tok512.bin"), cut, "truncated llama2.c checkpoint");
    }
}
