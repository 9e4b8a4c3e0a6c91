package dev.toolcoach.learn.core;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.toolcoach.learn.SeededRandom;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.io.HfNames;
import dev.toolcoach.model.io.HostTensor;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.StepInputs;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.Trace;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A randomly initialised tiny Llama from the model module, with a LoRA adapter, and a seeded sampler over its logits. */
final class TinyPolicy implements AutoCloseable {
    final NDManager manager;
    final Transformer model;
    final LoraAdapter adapter;

    /**
     * @param headScale multiplies the output head's HF init (std 0.02): with a frozen head that small, the
     *                  final RMSNorm caps every logit gap near 1, so no adapter could make a choice confident
     */
    TinyPolicy(int vocab, int layers, float headScale, long seed) {
        manager = NDManager.newBaseManager();
        ModelConfig config = ModelConfig.llama(64, 128, layers, 4, 2, vocab, 32);
        Map<String, HostTensor> weights = new HashMap<>(ModelWeights.randomHf(config, seed));
        HostTensor head = weights.get(HfNames.LM_HEAD);
        float[] scaled = head.data().clone();
        for (int i = 0; i < scaled.length; i++) scaled[i] *= headScale;
        weights.put(HfNames.LM_HEAD, new HostTensor(head.shape(), scaled));
        model = Transformer.create(config, weights, manager);
        adapter = LoraAdapter.create(new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj", "o_proj", "down_proj")),
                config, manager, seed + 1);
    }

    /** Log-probs of the next token after each prompt (rows of equal length), under the current adapter. */
    float[][] nextTokenLogprobs(int[][] prompts) {
        try (NDManager scope = manager.newSubManager()) {
            int[][] attention = new int[prompts.length][];
            for (int i = 0; i < prompts.length; i++) {
                attention[i] = new int[prompts[i].length];
                Arrays.fill(attention[i], 1);
            }
            NDArray logits = model.forward(StepInputs.scoring(prompts, attention), scope, null, adapter, false, true);
            float[] flat = logits.logSoftmax(-1).toFloatArray();
            int vocab = model.config().vocabSize();
            float[][] out = new float[prompts.length][];
            for (int i = 0; i < prompts.length; i++) {
                out[i] = Arrays.copyOfRange(flat, i * vocab, (i + 1) * vocab);
            }
            return out;
        }
    }

    static int sample(float[] logprobs, SeededRandom random) {
        double u = random.nextDouble();
        double cumulative = 0;
        for (int t = 0; t < logprobs.length; t++) {
            cumulative += Math.exp(logprobs[t]);
            if (u < cumulative) {
                return t;
            }
        }
        return logprobs.length - 1;
    }

    static int argmax(float[] logprobs) {
        int best = 0;
        for (int t = 1; t < logprobs.length; t++) {
            if (logprobs[t] > logprobs[best]) best = t;
        }
        return best;
    }

    /** A trace whose prompt is {@code prompt} and whose generated tail carries the behaviour log-probs and version. */
    static Trace trace(String id, String group, int[] prompt, int[] generated, float[] behaviour, int version) {
        int n = prompt.length + generated.length;
        int[] ids = new int[n];
        int[] mask = new int[n];
        float[] logprobs = new float[n];
        int[] versions = new int[n];
        Arrays.fill(versions, -1);
        System.arraycopy(prompt, 0, ids, 0, prompt.length);
        for (int i = 0; i < generated.length; i++) {
            ids[prompt.length + i] = generated[i];
            mask[prompt.length + i] = 1;
            logprobs[prompt.length + i] = behaviour[i];
            versions[prompt.length + i] = version;
        }
        return new Trace(id, group, group, null, null, new TokenRecord(prompt.length, ids, mask, logprobs, versions),
                null, Termination.ANSWER, null, 0, 0, null);
    }

    @Override
    public void close() {
        manager.close();
    }
}
