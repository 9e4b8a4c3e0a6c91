package dev.toolcoach.model.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** A model folder's fingerprint: the same files anywhere give the same digest; other weights, config or tokenizer another. */
class ModelDigestTest {

    @Test
    void theSameModelAnywhereIsOneDigestAndAnyOtherWeightOrSettingAnother(@TempDir Path dir) throws Exception {
        String a = ModelDigest.of(folder(dir.resolve("a"), new byte[] {1, 2, 3, 4}, "{\"hidden_size\": 8}"));
        Path b = folder(dir.resolve("b"), new byte[] {1, 2, 3, 4}, "{\"hidden_size\": 8}");
        Files.writeString(b.resolve("README.md"), "# notes");
        Files.createDirectories(b.resolve("checkpoints"));

        assertEquals(a, ModelDigest.of(b), "the path and files that are not the model do not count");
        assertEquals(64, a.length());
        assertNotEquals(a, ModelDigest.of(folder(dir.resolve("c"), new byte[] {1, 2, 3, 5}, "{\"hidden_size\": 8}")), "one weight byte");
        assertNotEquals(a, ModelDigest.of(folder(dir.resolve("d"), new byte[] {1, 2, 3, 4}, "{\"hidden_size\": 9}")), "the config");
        Path e = folder(dir.resolve("e"), new byte[] {1, 2, 3, 4}, "{\"hidden_size\": 8}");
        Files.writeString(e.resolve("chat_template.jinja"), "{{ messages }}");
        assertNotEquals(a, ModelDigest.of(e), "the chat template");
    }

    private static Path folder(Path dir, byte[] weights, String config) throws Exception {
        Files.createDirectories(dir);
        Files.write(dir.resolve("model.safetensors"), weights);
        Files.writeString(dir.resolve("config.json"), config);
        Files.writeString(dir.resolve("tokenizer.json"), "{\"model\": {}}");
        return dir;
    }
}
