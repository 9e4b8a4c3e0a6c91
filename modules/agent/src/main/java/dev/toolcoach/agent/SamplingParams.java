package dev.toolcoach.agent;

/**
 * How to sample the next tokens.
 *
 * @param temperature  softmax temperature; 0 means greedy
 * @param topK         keep only the k most likely tokens; 0 disables
 * @param topP         nucleus mass to keep; 1 disables
 * @param maxNewTokens most tokens one reply may have
 * @param seed         seed of the sampler, for reproducible rollouts
 */
public record SamplingParams(float temperature, int topK, float topP, int maxNewTokens, long seed) {
    public SamplingParams {
        if (temperature < 0) throw new IllegalArgumentException("temperature must be >= 0, got " + temperature);
        if (topK < 0) throw new IllegalArgumentException("topK must be >= 0, got " + topK);
        if (!(topP > 0 && topP <= 1)) throw new IllegalArgumentException("topP must be in (0, 1], got " + topP);
        if (maxNewTokens <= 0) throw new IllegalArgumentException("maxNewTokens must be > 0, got " + maxNewTokens);
    }

    public static SamplingParams greedy(int maxNewTokens) {
        return new SamplingParams(0f, 0, 1f, maxNewTokens, 0L);
    }

    public SamplingParams withMaxNewTokens(int n) {
        return new SamplingParams(temperature, topK, topP, n, seed);
    }

    public SamplingParams withSeed(long s) {
        return new SamplingParams(temperature, topK, topP, maxNewTokens, s);
    }
}
