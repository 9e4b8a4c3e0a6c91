package dev.toolcoach.policy;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.ComputeDevice;
import dev.toolcoach.model.ModelLoader;
import dev.toolcoach.model.PolicyModel;
import dev.toolcoach.model.io.ChatTemplates;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.io.ModelLoadException;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.PeftAdapterIo;
import dev.toolcoach.model.tokenizer.ModelTokenizer;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A local model as the agent sees it: its tokenizer, chat format and generator, all over one
 * {@link InferenceEngine}. Owns the engine and the model; {@link #close()} releases both.
 */
public final class LocalPolicy implements AutoCloseable {

    private final PolicyModel model;
    private final InferenceEngine engine;
    private final PolicyChatFormat chatFormat;
    private final LocalGenerator generator;
    private final NDManager ownedManager;

    private LocalPolicy(PolicyModel model, InferenceEngine engine, PolicyChatFormat chatFormat, NDManager ownedManager) {
        this.model = model;
        this.engine = engine;
        this.chatFormat = chatFormat;
        this.generator = new LocalGenerator(engine, model.tokenizer(), chatFormat.stopTokenIds(), model.config().contextLength());
        this.ownedManager = ownedManager;
    }

    /**
     * Serves {@code model} (taking ownership) through a new engine of {@code maxBatch} sequences.
     *
     * @throws IllegalArgumentException when the model's chat format gives no usable stop token
     */
    public static LocalPolicy of(PolicyModel model, int maxBatch) {
        return of(model, maxBatch, null);
    }

    /**
     * Loads an HF model folder or a llama2.c checkpoint (tokenizer null: the default beside it) and,
     * when {@code adapterDirOrNull} is given, its PEFT LoRA adapter. The base weights are shared with every other holder
     * of the same checkpoint in this JVM ({@code ModelLoader.shared}: an embedded run's learner and engine).
     *
     * @param device where it computes, in which type its base does
     * @throws dev.toolcoach.model.io.ModelLoadException naming the file that is missing or unusable
     */
    public static LocalPolicy load(Path model, Path tokenizerOrNull, Path adapterDirOrNull, int maxBatch, ComputeDevice device) {
        NDManager root = device.newManager();
        PolicyModel loaded = null;
        try {
            loaded = ModelLoader.shared(model, tokenizerOrNull, device);
            AdapterWeights adapter = adapterDirOrNull == null ? null : checkedAdapter(adapterDirOrNull, loaded, root);
            LocalPolicy policy = of(loaded, maxBatch, root);
            if (adapter != null) policy.engine.setAdapter(adapter);
            return policy;
        } catch (RuntimeException e) {
            if (loaded != null) loaded.close();
            root.close();
            throw e;
        }
    }

    /** Reads the adapter and fails now, naming it, if it does not fit the model (the engine would only log it). */
    private static AdapterWeights checkedAdapter(Path dir, PolicyModel model, NDManager root) {
        AdapterWeights adapter = PeftAdapterIo.load(dir);
        try {
            LoraAdapter.fromWeights(adapter, model.config(), root).close();
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(dir, "adapter does not fit the model: " + e.getMessage(), e);
        }
        return adapter;
    }

    private static LocalPolicy of(PolicyModel model, int maxBatch, NDManager ownedManager) {
        ModelTokenizer tok = model.tokenizer();
        PolicyChatFormat chat = new PolicyChatFormat(
                ChatTemplates.forModel(model),
                tok.specialTokens(), eosIds(model));
        return new LocalPolicy(model, new InferenceEngine(model.transformer(), tok, maxBatch), chat, ownedManager);
    }

    private static Set<Integer> eosIds(PolicyModel model) {
        Set<Integer> ids = new HashSet<>(model.source().eosTokenIds());
        if (model.tokenizer().eosId() >= 0) ids.add(model.tokenizer().eosId());
        return ids;
    }

    public PolicyModel model() {
        return model;
    }

    public InferenceEngine engine() {
        return engine;
    }

    public ModelTokenizer tokenizer() {
        return model.tokenizer();
    }

    public PolicyChatFormat chatFormat() {
        return chatFormat;
    }

    public LocalGenerator generator() {
        return generator;
    }

    @Override
    public void close() {
        engine.close();
        model.close();
        if (ownedManager != null) ownedManager.close();
    }
}
