package dev.toolcoach.openai;

import java.util.List;

/**
 * How an OpenAI chat request asks to sample: its values, or OpenAI's defaults where it gave none. Wire-level
 * values (temperature up to 2, no seed = the server chooses, stop strings); a backend turns them into its own
 * sampling, as {@link GeneratorBackend} does into the model's {@link dev.toolcoach.lm.SamplingParams}.
 */
public record RequestedSampling(double temperature, double topP, int maxTokens, Long seed, List<String> stop) {

    public static final int DEFAULT_MAX_TOKENS = 1024;

    public RequestedSampling {
        if (temperature < 0 || temperature > 2) throw new IllegalArgumentException("temperature must be in [0, 2]: " + temperature);
        if (topP <= 0 || topP > 1) throw new IllegalArgumentException("top_p must be in (0, 1]: " + topP);
        if (maxTokens < 1) throw new IllegalArgumentException("max_tokens must be at least 1: " + maxTokens);
        stop = stop == null ? List.of() : List.copyOf(stop);
    }

    static RequestedSampling of(ChatRequest r) {
        return new RequestedSampling(r.temperature() == null ? 1.0 : r.temperature(), r.topP() == null ? 1.0 : r.topP(),
                r.maxTokens() == null ? DEFAULT_MAX_TOKENS : r.maxTokens(), r.seed(), r.stop());
    }
}
