package dev.toolcoach.model.generate;

import java.util.List;
import java.util.Set;

/**
 * How to pick tokens. Temperature 0 is greedy decoding.
 *
 * @param topK          0 keeps every token
 * @param topP          1 keeps every token
 * @param seed          per-request random seed: the same request gives the same tokens however it is batched
 * @param stopTokenIds  generation ends after emitting one of these (the token is kept)
 * @param stopStrings   generation ends once the decoded continuation contains one of these (text kept up to its end)
 */
public record SamplingParams(float temperature, float topP, int topK, long seed, int maxNewTokens,
                             Set<Integer> stopTokenIds, List<String> stopStrings) {
    public SamplingParams {
        if (temperature < 0 || !(topP > 0 && topP <= 1) || topK < 0 || maxNewTokens <= 0) {
            throw new IllegalArgumentException("invalid sampling parameters: temperature " + temperature + ", top-p " + topP
                    + ", top-k " + topK + ", max new tokens " + maxNewTokens);
        }
        stopTokenIds = Set.copyOf(stopTokenIds);
        stopStrings = List.copyOf(stopStrings);
    }

    public static SamplingParams greedy(int maxNewTokens, Set<Integer> stopTokenIds) {
        return new SamplingParams(0f, 1f, 0, 0L, maxNewTokens, stopTokenIds, List.of());
    }

    public boolean greedy() {
        return temperature == 0f;
    }
}
