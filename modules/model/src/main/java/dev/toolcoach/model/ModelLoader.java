package dev.toolcoach.model;

import ai.djl.Device;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfModelFolder;
import dev.toolcoach.model.io.Llama2cCheckpoint;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.io.StoredTensor;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.HfTokenizer;
import dev.toolcoach.model.tokenizer.Llama2cTokenizer;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
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
     * A model with a base of its own, in a sub-manager of {@code parent}.
     *
     * @param model     an HF model folder or a llama2.c checkpoint file
     * @param tokenizer tokenizer file, or null for the default (folder/tokenizer.json, or tokenizer.bin beside the .bin)
     */
    public static PolicyModel load(Path model, Path tokenizer, NDManager parent) {
        Checkpoint ck = Checkpoint.open(model, tokenizer);
        try {
            return new PolicyModel(transformer(ck, parent, DataType.FLOAT32), ck.tokenizer(), ck.source());
        } catch (RuntimeException e) {
            ck.closeTokenizer();
            throw e;
        }
    }

    /**
     * As {@link #load}, on {@code device} in its {@link Precision}, with the base transformer shared by every holder of
     * the same checkpoint on the same device in the same type in this JVM (see {@link SharedBases}): an embedded run's
     * learner and its engine hold one copy of the weights. The model's own adapter goes on top; closing the model
     * releases its hold on the base. A shared base stays frozen: {@link PolicyModel#trainAllParameters} refuses it.
     */
    public static PolicyModel shared(Path model, Path tokenizer, ComputeDevice device) {
        return shared(model, tokenizer, device.device(), device.dataType());
    }

    /** As {@link #shared(Path, Path, ComputeDevice)}, with the base on {@code device} in {@code dtype}. */
    public static PolicyModel shared(Path model, Path tokenizer, Device device, DataType dtype) {
        Checkpoint ck = Checkpoint.open(model, tokenizer);
        Transformer base;
        try {
            base = SharedBases.acquire(model, device, dtype, manager -> transformer(ck, manager, dtype));
        } catch (RuntimeException e) {
            ck.closeTokenizer();
            throw e;
        }
        return new PolicyModel(base, ck.tokenizer(), ck.source(), () -> SharedBases.release(base));
    }

    /** A checkpoint located and checked, with its tokenizer loaded; no weight read yet. */
    private record Checkpoint(Path file, ModelConfig config, Map<String, StoredTensor> tensors, ModelTokenizer tokenizer, ModelSource source) {
        static Checkpoint open(Path model, Path tokenizer) {
            if (Files.isDirectory(model)) {
                HfModelFolder.Located c = HfModelFolder.locate(model);
                Path tokFile = tokenizer != null ? tokenizer : model.resolve("tokenizer.json");
                int eos = c.source().eosTokenIds().stream().findFirst().orElse(-1);
                HfTokenizer tok = HfTokenizer.load(tokFile, c.config().vocabSize(), c.source().bosTokenId(), eos);
                return new Checkpoint(model, c.config(), c.tensors(), tok, c.source());
            }
            if (!Files.isRegularFile(model)) {
                throw new ModelLoadException(model, "file not found");
            }
            Llama2cCheckpoint.Located ck = Llama2cCheckpoint.locate(model);
            Path tokFile = tokenizer != null ? tokenizer : model.resolveSibling("tokenizer.bin");
            Llama2cTokenizer tok = Llama2cTokenizer.read(tokFile, ck.config().vocabSize());
            // llama2.c's run ends a sample when the model emits BOS
            ModelSource source = new ModelSource(Set.of(tok.bosId()), tok.bosId(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
            return new Checkpoint(model, ck.config(), ck.tensors(), tok, source);
        }

        void closeTokenizer() {
            if (tokenizer instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing the tokenizer failed", e);
                }
            }
        }
    }

    private static Transformer transformer(Checkpoint ck, NDManager parent, DataType dtype) {
        try {
            return Transformer.load(ck.config(), ck.tensors(), parent, dtype);
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(ck.file(), e.getMessage(), e);
        }
    }
}
