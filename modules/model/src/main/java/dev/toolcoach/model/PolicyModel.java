package dev.toolcoach.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.AdapterWeights;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.model.tokenizer.ModelTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The trainable policy: a frozen base transformer, an optional LoRA adapter (or all weights trainable, for a
 * model trained from scratch), and its tokenizer. The learner's entry point.
 */
public final class PolicyModel implements AutoCloseable {
    private final Transformer transformer;
    private final ModelTokenizer tokenizer;
    private final ModelSource source;
    private final Runnable releaseBase;
    private final boolean sharedBase;
    private LoraAdapter lora;
    private boolean allTrainable;

    /** A model that owns its base transformer and closes it on {@link #close}. */
    public PolicyModel(Transformer transformer, ModelTokenizer tokenizer, ModelSource source) {
        this(transformer, tokenizer, source, transformer::close, false);
    }

    /** A model over a base others hold too ({@link ModelLoader#shared}); {@code releaseBase} runs on {@link #close}. */
    PolicyModel(Transformer transformer, ModelTokenizer tokenizer, ModelSource source, Runnable releaseBase) {
        this(transformer, tokenizer, source, releaseBase, true);
    }

    private PolicyModel(Transformer transformer, ModelTokenizer tokenizer, ModelSource source, Runnable releaseBase, boolean sharedBase) {
        this.transformer = transformer;
        this.tokenizer = tokenizer;
        this.source = source;
        this.releaseBase = releaseBase;
        this.sharedBase = sharedBase;
    }

    /** A randomly initialised model (seeded) with the given tokenizer, e.g. a tiny model trained from scratch. */
    public static PolicyModel random(ModelConfig config, long seed, ModelTokenizer tokenizer, NDManager parent) {
        Map<String, HostTensor> t = ModelWeights.randomHf(config, seed);
        return new PolicyModel(Transformer.create(config, t, parent), tokenizer, ModelSource.none());
    }

    public Transformer transformer() {
        return transformer;
    }

    public ModelTokenizer tokenizer() {
        return tokenizer;
    }

    public ModelConfig config() {
        return transformer.config();
    }

    /** Where the model came from: generation defaults and chat template, when the folder had them. */
    public ModelSource source() {
        return source;
    }

    /** Adds a fresh trainable adapter (B = 0, so the model's outputs do not change). */
    public LoraAdapter addLora(LoraConfig config, long seed) {
        setAdapter(LoraAdapter.create(config, config(), transformer.manager(), seed));
        return lora;
    }

    /** Installs a given adapter (e.g. one loaded in PEFT format) as the trainable one. */
    public void setAdapter(LoraAdapter adapter) {
        if (lora != null) {
            lora.close();
        }
        lora = adapter;
        lora.setTrainable(true);
    }

    /** The current adapter, or null. */
    public LoraAdapter lora() {
        return lora;
    }

    /**
     * Makes every base weight trainable too (from-scratch training).
     *
     * @throws IllegalStateException on a shared base, which other holders rely on staying frozen
     */
    public void trainAllParameters() {
        if (sharedBase) {
            throw new IllegalStateException("the base transformer is shared with other holders and stays frozen: load the model with ModelLoader.load to train all of it");
        }
        allTrainable = true;
        transformer.weights().all().forEach(w -> w.setRequiresGradient(true));
    }

    /** The arrays an optimiser updates: the adapter's A and B (and all base weights after trainAllParameters). */
    public List<NDArray> trainableParameters() {
        List<NDArray> out = new ArrayList<>();
        if (allTrainable) {
            out.addAll(transformer.weights().all());
        }
        if (lora != null) {
            out.addAll(lora.parameters());
        }
        return out;
    }

    public AdapterWeights snapshotAdapter() {
        return requireLora().snapshot();
    }

    public void restoreAdapter(AdapterWeights weights) {
        requireLora().restore(weights);
    }

    /** Adapter version (0 without an adapter); the learner bumps it after each update. */
    public int version() {
        return lora == null ? 0 : lora.version();
    }

    public void setVersion(int version) {
        requireLora().setVersion(version);
    }

    /**
     * Teacher-forced log-probs (and entropies) of each next token. Call inside a DJL GradientCollector to get
     * gradients on {@link #trainableParameters()}; everything it creates lives in {@code scope}.
     *
     * @param tokens     [B][L] token ids, padded
     * @param attention  [B][L] 1 for real tokens, 0 for padding (left or right)
     * @param useAdapter false gives the frozen reference policy (same weights, adapter left out)
     * @param training   enables LoRA dropout
     */
    public TokenScores score(NDManager scope, int[][] tokens, int[][] attention, boolean useAdapter, boolean training) {
        int len = tokens[0].length;
        if (len < 2) {
            throw new IllegalArgumentException("scoring needs sequences of at least 2 tokens, got " + len);
        }
        StepInputs step = StepInputs.scoring(tokens, attention);
        NDArray hidden = transformer.hidden(step, scope, null, useAdapter ? lora : null, training, false);
        int[] next = new int[tokens.length * (len - 1)];
        for (int b = 0; b < tokens.length; b++) {
            System.arraycopy(tokens[b], 1, next, b * (len - 1), len - 1);
        }
        NDArray targets = scope.create(next, new Shape(tokens.length, len - 1));
        return TokenScores.score(transformer, hidden, targets);
    }

    private LoraAdapter requireLora() {
        return Objects.requireNonNull(lora, "no LoRA adapter: call addLora or setAdapter first");
    }

    @Override
    public void close() {
        if (lora != null) {
            lora.close();
        }
        releaseBase.run();
        if (tokenizer instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the tokenizer failed", e);
            }
        }
    }
}
