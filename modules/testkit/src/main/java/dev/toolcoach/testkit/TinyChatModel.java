package dev.toolcoach.testkit;

import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.tokenizer.ByteLevelTokenizerJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a tiny random Qwen2 chat model as an HF folder: a byte-level BPE tokenizer.json (ids 0–255
 * are the bytes, so any text round-trips) plus ChatML's special tokens, and a generation config
 * whose EOS is {@code <|im_end|>}. Shared by the policy, brain and coach-node tests and the adapter broadcast bench.
 */
public final class TinyChatModel {

    public static final List<String> SPECIALS = List.of("<|im_start|>", "<|im_end|>", "<|endoftext|>");
    public static final int IM_END = 257;
    public static final int VOCAB = ByteLevelTokenizerJson.vocabSize(SPECIALS, List.of());

    private TinyChatModel() {
    }

    /**
     * dim 32, 2 layers, 4 heads over 2 kv heads, a 4096-token context (room for the agent's system prompt).
     * The LM head is untied: with tied embeddings a random model's greedy reply just repeats its last input token.
     */
    public static ModelConfig config() {
        return new ModelConfig("qwen2", 32, 48, 2, 4, 2, VOCAB, 4096, 1e-6f, 1_000_000f, false, true);
    }

    public static Path write(Path dir, long seed) throws IOException {
        return write(dir, config(), seed);
    }

    /** The same tokenizer and chat setup over a random model of another shape (its vocabulary must be {@link #VOCAB}). */
    public static Path write(Path dir, ModelConfig config, long seed) throws IOException {
        Files.createDirectories(dir);
        HfModelFolder.write(dir, config, ModelWeights.randomHf(config, seed));
        ByteLevelTokenizerJson.write(dir.resolve("tokenizer.json"), SPECIALS, List.of());
        Files.writeString(dir.resolve("generation_config.json"), "{\"eos_token_id\": [" + IM_END + ", 258]}");
        return dir;
    }
}
