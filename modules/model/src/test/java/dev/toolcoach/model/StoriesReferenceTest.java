package dev.toolcoach.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.generate.Llama2cRun;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.Llama2cCheckpoint;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real pretrained stories260K must decode greedily exactly as llama2.c's run does. */
class StoriesReferenceTest {
    @Test
    void greedy200StepsFromBosMatchesLlama2c() throws Exception {
        Path dir = TestModels.sharedModels();
        String expected = Files.readString(dir.resolve("stories260K.greedy200.expected.txt"));
        Llama2cCheckpoint.Loaded ck = Llama2cCheckpoint.read(dir.resolve("stories260K.bin"));
        Llama2cTokenizer tok = Llama2cTokenizer.read(dir.resolve("tok512.bin"), ck.config().vocabSize());
        try (NDManager root = TestModels.newRoot(); Transformer model = Transformer.create(ck.config(), ck.tensors(), root)) {
            String text = Llama2cRun.generate(model, tok, "", 0f, 0.9f, 200, 0L);
            assertEquals(expected, text);
        }
    }

    /** Saved as an HF folder (rotate-half q/k layout, config.json) and read back, the model decodes the same. */
    @Test
    void theSameModelThroughAHuggingFaceFolderDecodesTheSame(@TempDir Path tmp) throws Exception {
        Path dir = TestModels.sharedModels();
        Llama2cCheckpoint.Loaded ck = Llama2cCheckpoint.read(dir.resolve("stories260K.bin"));
        Llama2cTokenizer tok = Llama2cTokenizer.read(dir.resolve("tok512.bin"), ck.config().vocabSize());
        HfModelFolder.write(tmp, ck.config(), ck.tensors());
        HfModelFolder.Contents hf = HfModelFolder.read(tmp);
        assertEquals(ck.config(), hf.config());
        try (NDManager root = TestModels.newRoot(); Transformer model = Transformer.create(hf.config(), hf.tensors(), root)) {
            assertEquals(Files.readString(dir.resolve("stories260K.greedy200.expected.txt")),
                    Llama2cRun.generate(model, tok, "", 0f, 0.9f, 200, 0L));
        }
    }
}
