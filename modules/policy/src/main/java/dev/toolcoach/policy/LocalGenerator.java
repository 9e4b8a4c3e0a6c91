package dev.toolcoach.policy;

import dev.toolcoach.agent.Generation;
import dev.toolcoach.agent.GenerationRequest;
import dev.toolcoach.agent.Generator;
import dev.toolcoach.agent.SamplingParams;
import dev.toolcoach.model.engine.InferenceEngine;
import dev.toolcoach.model.tokenizer.TextTokenizer;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * The agent's {@link Generator} over a model's {@link InferenceEngine}: the context ids go to the
 * engine as they are, and the engine's ids, behaviour log-probs and adapter versions come back
 * unchanged, so the trace records exactly what was sampled.
 */
public final class LocalGenerator implements Generator {

    private final InferenceEngine engine;
    private final TextTokenizer tokenizer;
    private final Set<Integer> stopTokenIds;

    public LocalGenerator(InferenceEngine engine, TextTokenizer tokenizer, Set<Integer> stopTokenIds) {
        if (stopTokenIds.isEmpty()) throw new IllegalArgumentException("a generator needs at least one stop token");
        this.engine = engine;
        this.tokenizer = tokenizer;
        this.stopTokenIds = Set.copyOf(stopTokenIds);
    }

    @Override
    public CompletionStage<Generation> generate(GenerationRequest request) {
        return engine.submit(request.context(), engineParams(request.sampling())).thenApply(this::toAgent);
    }

    private dev.toolcoach.model.generate.SamplingParams engineParams(SamplingParams s) {
        return new dev.toolcoach.model.generate.SamplingParams(s.temperature(), s.topP(), s.topK(), s.seed(),
                s.maxNewTokens(), stopTokenIds, List.of());
    }

    private Generation toAgent(dev.toolcoach.model.generate.Generation g) {
        int[] ids = g.tokens();
        Generation.FinishReason finish = switch (g.finish()) {
            case STOP_TOKEN -> Generation.FinishReason.STOP;
            case MAX_TOKENS, CONTEXT_FULL -> Generation.FinishReason.LENGTH;
            // no stop strings are ever passed, so the engine cannot end on one
            case STOP_STRING -> throw new IllegalStateException("engine stopped on a stop string it was never given");
        };
        int textEnd = finish == Generation.FinishReason.STOP ? ids.length - 1 : ids.length;
        return new Generation(ids, g.logProbs(), versions(g.adapterVersions()),
                tokenizer.decode(Arrays.copyOf(ids, textEnd)), finish);
    }

    private static int[] versions(long[] adapterVersions) {
        int[] out = new int[adapterVersions.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.toIntExact(adapterVersions[i]);
        }
        return out;
    }
}
