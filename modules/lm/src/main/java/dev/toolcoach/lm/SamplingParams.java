package dev.toolcoach.lm;

import java.util.List;
import java.util.Set;

/**
 * How to sample the next tokens, and when to stop.
 *
 * @param temperature  softmax temperature; 0 means greedy
 * @param topK         keep only the k most likely tokens; 0 disables
 * @param topP         nucleus mass to keep; 1 disables
 * @param maxNewTokens most tokens one reply may have
 * @param seed         seed of the sampler: the same request gives the same tokens however it is batched
 * @param stopTokenIds generation ends after emitting one of these (the token is kept)
 * @param stopStrings  generation ends once the decoded continuation contains one of these (text kept up to its end)
 */
public record SamplingParams(float temperature, int topK, float topP, int maxNewTokens, long seed,
                             Set<Integer> stopTokenIds, List<String> stopStrings) {
    public SamplingParams {
        // written as what a good value is: NaN passes every comparison, and would reach a sampler
        if (!(temperature >= 0 && Float.isFinite(temperature))) {
            throw new IllegalArgumentException("temperature must be a finite number >= 0, got " + temperature);
        }
        if (topK < 0) throw new IllegalArgumentException("topK must be >= 0, got " + topK);
        if (!(topP > 0 && topP <= 1)) throw new IllegalArgumentException("topP must be in (0, 1], got " + topP);
        if (maxNewTokens <= 0) throw new IllegalArgumentException("maxNewTokens must be > 0, got " + maxNewTokens);
        stopTokenIds = Set.copyOf(stopTokenIds);
        stopStrings = List.copyOf(stopStrings);
    }

    /** Without stop conditions: the agent's settings, whose stop token the policy adds for its model. */
    public SamplingParams(float temperature, int topK, float topP, int maxNewTokens, long seed) {
        this(temperature, topK, topP, maxNewTokens, seed, Set.of(), List.of());
    }

    public static SamplingParams greedy(int maxNewTokens) {
        return atTemperature(0f, maxNewTokens, 0L);
    }

    /** The whole distribution at {@code temperature}: no top-k or top-p cut, no stop condition. */
    public static SamplingParams atTemperature(float temperature, int maxNewTokens, long seed) {
        return new SamplingParams(temperature, 0, 1f, maxNewTokens, seed);
    }

    public boolean isGreedy() {
        return temperature == 0f;
    }

    public SamplingParams withMaxNewTokens(int n) {
        return new SamplingParams(temperature, topK, topP, n, seed, stopTokenIds, stopStrings);
    }

    public SamplingParams withSeed(long s) {
        return new SamplingParams(temperature, topK, topP, maxNewTokens, s, stopTokenIds, stopStrings);
    }

    public SamplingParams withStopTokenIds(Set<Integer> ids) {
        return new SamplingParams(temperature, topK, topP, maxNewTokens, seed, ids, stopStrings);
    }
}
