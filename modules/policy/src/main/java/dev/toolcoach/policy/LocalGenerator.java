package dev.toolcoach.policy;

import dev.toolcoach.agent.Generator;
import dev.toolcoach.lm.ContextTooLong;
import dev.toolcoach.lm.FinishReason;
import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.generate.DecodedSequence;
import dev.toolcoach.model.tokenizer.ModelTokenizer;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The agent's {@link Generator} over a model's {@link InferenceEngine}: the context ids go to the
 * engine as they are, and the engine's ids, behaviour log-probs and policy versions come back
 * unchanged, so the trace records exactly what was sampled.
 */
public final class LocalGenerator implements Generator {

    private final InferenceEngine engine;
    private final ModelTokenizer tokenizer;
    private final Set<Integer> stopTokenIds;
    private final int contextLength;

    /** @param contextLength positions the model runs at: a context must leave room for at least one new token */
    public LocalGenerator(InferenceEngine engine, ModelTokenizer tokenizer, Set<Integer> stopTokenIds, int contextLength) {
        if (stopTokenIds.isEmpty()) throw new IllegalArgumentException("a generator needs at least one stop token");
        this.engine = engine;
        this.tokenizer = tokenizer;
        this.stopTokenIds = Set.copyOf(stopTokenIds);
        this.contextLength = contextLength;
    }

    /**
     * The agent's sampling with this model's stop tokens (the agent gives none, and no stop strings); the trajectory is
     * the engine's conversation, so each turn prefills only what the engine's cache of it does not hold yet. A context
     * the model cannot hold fails this request alone ({@link ContextTooLong}), before the engine sees it.
     */
    @Override
    public CompletionStage<Generation> generate(GenerationRequest request) {
        int[] context = request.context();
        if (context.length >= contextLength) {
            return CompletableFuture.failedFuture(new ContextTooLong(context.length, contextLength));
        }
        return engine.submit(request.trajectoryId(), context, request.sampling().withStopTokenIds(stopTokenIds))
                .thenApply(this::toAgent);
    }

    @Override
    public void release(String trajectoryId) {
        engine.release(trajectoryId);
    }

    /** The reply's text leaves out the stop token it ended on: the action parser reads only the reply. */
    private Generation toAgent(DecodedSequence d) {
        int[] ids = d.tokens();
        int textEnd = d.finish() == FinishReason.STOP_TOKEN ? ids.length - 1 : ids.length;
        return new Generation(ids, d.logProbs(), d.policyVersions(), tokenizer.decode(Arrays.copyOf(ids, textEnd)), d.finish());
    }
}
