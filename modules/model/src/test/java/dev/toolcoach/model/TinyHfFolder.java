package dev.toolcoach.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.nn.ModelWeights;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a tiny random model as an HF folder with a WordLevel tokenizer.json ("<unk>", "<s>", "</s>", "w3" … ). */
public final class TinyHfFolder {
    private TinyHfFolder() {
    }

    static Path write(Path dir, ModelConfig config, long seed) throws IOException {
        HfModelFolder.write(dir, config, ModelWeights.randomHf(config, seed));
        writeTokenizerFiles(dir, config.vocabSize());
        return dir;
    }

    /** tokenizer.json (see {@link #writeTokenizer}) and a generation_config.json (bos 1, eos [2], temperature 0.7). */
    public static void writeTokenizerFiles(Path dir, int vocab) throws IOException {
        writeTokenizer(dir.resolve("tokenizer.json"), vocab);
        Files.writeString(dir.resolve("generation_config.json"), "{\"bos_token_id\": 1, \"eos_token_id\": [2], \"temperature\": 0.7}");
    }

    static void writeTokenizer(Path file, int vocab) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        var added = root.putArray("added_tokens");
        String[] specials = {"<unk>", "<s>", "</s>"};
        for (int i = 0; i < specials.length; i++) {
            added.addObject().put("id", i).put("content", specials[i]).put("single_word", false).put("lstrip", false)
                    .put("rstrip", false).put("normalized", false).put("special", true);
        }
        root.putNull("normalizer");
        root.putObject("pre_tokenizer").put("type", "Whitespace");
        root.putNull("post_processor");
        root.putObject("decoder").put("type", "WordPiece").put("prefix", "##").put("cleanup", false);
        ObjectNode model = root.putObject("model");
        model.put("type", "WordLevel");
        model.put("unk_token", "<unk>");
        ObjectNode v = model.putObject("vocab");
        for (int i = 0; i < vocab; i++) {
            v.put(i < specials.length ? specials[i] : "w" + i, i);
        }
        Files.writeString(file, json.writeValueAsString(root));
    }
}
