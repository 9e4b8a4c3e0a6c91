package dev.toolcoach.model.tokenizer;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.trace.UntrustedJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Hugging Face tokenizer.json through DJL's Rust tokenizers binding (no special tokens added on encode). */
public final class HfTokenizer implements ModelTokenizer, AutoCloseable {
    private final HuggingFaceTokenizer tokenizer;
    private final Path file;
    private final int vocabSize;
    private final int bos;
    private final int eos;
    private final Map<String, Integer> specials;

    private HfTokenizer(HuggingFaceTokenizer tokenizer, Path file, int vocabSize, int bos, int eos,
                        Map<String, Integer> specials) {
        this.tokenizer = tokenizer;
        this.file = file;
        this.vocabSize = vocabSize;
        this.bos = bos;
        this.eos = eos;
        this.specials = specials;
    }

    /**
     * Loads tokenizer.json and checks it fits a model vocabulary of {@code modelVocab} (ids beyond it would index
     * past the embedding).
     */
    public static HfTokenizer load(Path file, int modelVocab, int bosId, int eosId) {
        if (!Files.isRegularFile(file)) {
            throw new ModelLoadException(file, "file not found");
        }
        JsonNode root = readJson(file);
        int size = highestId(file, root) + 1;
        if (size > modelVocab) {
            throw new ModelLoadException(file, "tokenizer has ids up to " + (size - 1) + " but the model's vocabulary size is " + modelVocab);
        }
        try {
            HuggingFaceTokenizer t = HuggingFaceTokenizer.builder().optTokenizerPath(file)
                    .optAddSpecialTokens(false).optTruncation(false).optPadding(false).build();
            return new HfTokenizer(t, file, size, bosId, eosId, specials(root));
        } catch (IOException | RuntimeException e) {
            throw new ModelLoadException(file, "cannot load tokenizer (" + e.getMessage() + ")", e);
        }
    }

    private static JsonNode readJson(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new ModelLoadException(file, "tokenizer: " + UntrustedJson.reason(e), e);
        } catch (IOException e) {
            throw new ModelLoadException(file, "tokenizer cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** The {@code added_tokens} marked special, by their text. */
    private static Map<String, Integer> specials(JsonNode root) {
        Map<String, Integer> specials = new LinkedHashMap<>();
        for (JsonNode added : root.path("added_tokens")) {
            if (added.path("special").asBoolean(false)) {
                specials.put(added.path("content").asText(), added.path("id").asInt());
            }
        }
        return Map.copyOf(specials);
    }

    private static int highestId(Path file, JsonNode root) {
        int max = -1;
        JsonNode vocab = root.path("model").path("vocab");
        if (vocab.isObject()) {
            for (Iterator<JsonNode> it = vocab.elements(); it.hasNext(); ) {
                max = Math.max(max, it.next().asInt());
            }
        } else if (vocab.isArray()) { // Unigram: [[piece, score], ...]
            max = vocab.size() - 1;
        }
        for (JsonNode added : root.path("added_tokens")) {
            max = Math.max(max, added.path("id").asInt());
        }
        if (max < 0) {
            throw new ModelLoadException(file, "tokenizer has no vocabulary");
        }
        return max;
    }

    public Path file() {
        return file;
    }

    @Override
    public int[] encode(String text) {
        long[] ids = tokenizer.encode(text).getIds();
        int[] out = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = (int) ids[i];
        }
        return out;
    }

    @Override
    public String decode(int[] ids) {
        long[] l = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            l[i] = ids[i];
        }
        return tokenizer.decode(l, false);
    }

    /** The special-token strings of tokenizer.json ({@code added_tokens} marked special) and their ids. */
    @Override
    public Map<String, Integer> specialTokens() {
        return specials;
    }

    @Override
    public int vocabSize() {
        return vocabSize;
    }

    @Override
    public int bosId() {
        return bos;
    }

    @Override
    public int eosId() {
        return eos;
    }

    @Override
    public void close() {
        tokenizer.close();
    }
}
