package dev.toolcoach.model;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.Llama2cCheckpoint;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Loads either kind of checkpoint: a Hugging Face folder, or a llama2.c {@code .bin} with its tokenizer.bin.
 * Every file is located and checked before any weight is read; the weights then stream from the files straight into
 * device arrays (never whole on the Java heap). On any error nothing stays allocated.
 */
public final class ModelLoader {
    private ModelLoader() {
    }

    /**
     * @param model     an HF model folder or a llama2.c checkpoint file
     * @param tokenizer tokenizer file, or null for the default (folder/tokenizer.json, or tokenizer.bin beside the .bin)
     */
    public static PolicyModel load(Path model, Path tokenizer, NDManager parent) {
        if (Files.isDirectory(model)) {
            return loadHf(model, tokenizer, parent);
        }
        if (!Files.isRegularFile(model)) {
            throw new ModelLoadException(model, "file not found");
        }
        Llama2cCheckpoint.Located ck = Llama2cCheckpoint.locate(model);
        Path tokFile = tokenizer != null ? tokenizer : model.resolveSibling("tokenizer.bin");
        Llama2cTokenizer tok = Llama2cTokenizer.read(tokFile, ck.config().vocabSize());
        // llama2.c's run ends a sample when the model emits BOS
        ModelSource source = new ModelSource(Set.of(tok.bosId()), tok.bosId(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
        return new PolicyModel(transformer(model, ck.config(), ck.tensors(), parent), tok, source);
    }

    private static PolicyModel loadHf(Path dir, Path tokenizer, NDManager parent) {
        HfModelFolder.Located c = HfModelFolder.locate(dir);
        Path tokFile = tokenizer != null ? tokenizer : dir.resolve("tokenizer.json");
        int eos = c.source().eosTokenIds().stream().findFirst().orElse(-1);
        HfTokenizer tok = HfTokenizer.load(tokFile, c.config().vocabSize(), c.source().bosTokenId(), eos);
        try {
            return new PolicyModel(transformer(dir, c.config(), c.tensors(), parent), tok, c.source());
        } catch (RuntimeException e) {
            tok.close();
            throw e;
        }
    }

    private static Transformer transformer(Path file, ModelConfig config, Map<String, StoredTensor> tensors, NDManager parent) {
        try {
            return Transformer.load(config, tensors, parent);
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(file, e.getMessage(), e);
        }
    }
}
