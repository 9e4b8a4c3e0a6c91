package dev.toolcoach.policy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.nn.ModelWeights;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a tiny random Qwen2 chat model as an HF folder: a byte-level BPE tokenizer.json (ids 0–255
 * are the bytes, so any text round-trips) plus ChatML's special tokens, and a generation config
 * whose EOS is {@code <|im_end|>}. Shared with coach-node's serve test through the test-jar.
 */
public final class TinyChatModel {

    public static final List<String> SPECIALS = List.of("<|im_start|>", "<|im_end|>", "<|endoftext|>");
    public static final int IM_END = 257;
    public static final int VOCAB = 256 + SPECIALS.size();

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
        Files.createDirectories(dir);
        HfModelFolder.write(dir, config(), ModelWeights.randomHf(config(), seed));
        writeTokenizer(dir.resolve("tokenizer.json"));
        Files.writeString(dir.resolve("generation_config.json"), "{\"eos_token_id\": [" + IM_END + ", 258]}");
        return dir;
    }

    private static void writeTokenizer(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = root.putArray("added_tokens");
        for (int i = 0; i < SPECIALS.size(); i++) {
            added.addObject().put("id", 256 + i).put("content", SPECIALS.get(i)).put("single_word", false)
                    .put("lstrip", false).put("rstrip", false).put("normalized", false).put("special", true);
        }
        root.putNull("normalizer");
        root.set("pre_tokenizer", byteLevel(json));
        root.putNull("post_processor");
        root.set("decoder", byteLevel(json));
        ObjectNode model = root.putObject("model");
        model.put("type", "BPE");
        model.putNull("dropout");
        model.putNull("unk_token");
        model.put("fuse_unk", false);
        model.put("byte_fallback", false);
        ObjectNode vocab = model.putObject("vocab");
        List<String> byteChars = byteLevelAlphabet();
        for (int b = 0; b < 256; b++) {
            vocab.put(byteChars.get(b), b);
        }
        model.putArray("merges");
        Files.writeString(file, json.writeValueAsString(root));
    }

    private static ObjectNode byteLevel(ObjectMapper json) {
        return json.createObjectNode().put("type", "ByteLevel").put("add_prefix_space", false)
                .put("trim_offsets", false).put("use_regex", true);
    }

    /** GPT-2's printable stand-in for each byte (bytes_to_unicode), indexed by byte value. */
    private static List<String> byteLevelAlphabet() {
        String[] chars = new String[256];
        int extra = 0;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            chars[b] = String.valueOf((char) (printable ? b : 256 + extra++));
        }
        return new ArrayList<>(List.of(chars));
    }
}
