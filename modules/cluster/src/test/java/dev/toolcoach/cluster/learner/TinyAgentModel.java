package dev.toolcoach.cluster.learner;

import ai.djl.ndarray.NDManager;
import dev.toolcoach.model.OpThreads;
import dev.toolcoach.model.config.ModelConfig;
import dev.toolcoach.model.generate.BatchDecoder;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.lm.SamplingParams;
import dev.toolcoach.model.lora.LoraAdapter;
import dev.toolcoach.model.lora.LoraConfig;
import dev.toolcoach.model.nn.ModelWeights;
import dev.toolcoach.model.nn.Transformer;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.Trace;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A randomly initialised tiny Llama from the model module with a LoRA adapter, whose rollouts are
 * sampled by the model's own generator: exact token ids, behaviour log-probs and adapter versions.
 */
final class TinyAgentModel implements AutoCloseable {
    static final int VOCAB = 16;
    static final int NEW_TOKENS = 4;
    static final LoraConfig LORA = new LoraConfig(4, 8f, 0f, Set.of("q_proj", "v_proj"));
    private final NDManager manager;
    final Transformer model;
    final LoraAdapter adapter;
    private final IdTokenizer tokenizer = new IdTokenizer(VOCAB);

    TinyAgentModel(long seed) {
        OpThreads.setIntraOp(1); // one thread is as fast for a model this small, and steadier on a busy machine
        manager = NDManager.newBaseManager();
        ModelConfig config = ModelConfig.llama(32, 64, 2, 4, 2, VOCAB, 32);
        model = Transformer.create(config, ModelWeights.randomHf(config, seed), manager);
        adapter = LoraAdapter.create(LORA, config, manager, seed + 1);
    }

    /** One rollout of the current adapter from {@code prompt}, sampled at temperature 1 with {@code seed}. */
    Trace rollout(String rolloutId, String groupId, int[] prompt, long seed) {
        SamplingParams params = new SamplingParams(1f, 0, 1f, NEW_TOKENS, seed, Set.of(), List.of());
        DecodedSequence g = BatchDecoder.decodeOne(model, tokenizer, prompt, params, adapter);
        int n = prompt.length + g.tokens().length;
        int[] ids = Arrays.copyOf(prompt, n);
        int[] mask = new int[n];
        float[] logprobs = new float[n];
        int[] versions = new int[n];
        Arrays.fill(versions, -1);
        for (int i = 0; i < g.tokens().length; i++) {
            int at = prompt.length + i;
            ids[at] = g.tokens()[i];
            mask[at] = 1;
            logprobs[at] = g.logProbs()[i];
            versions[at] = g.policyVersions()[i];
        }
        return new Trace(rolloutId, groupId, "q-" + groupId, tokenizer.decode(prompt), null,
                new TokenRecord(prompt.length, ids, mask, logprobs, versions), g.text(), Termination.ANSWER, null, 0, 0, null);
    }

    @Override
    public void close() {
        manager.close();
    }
}
