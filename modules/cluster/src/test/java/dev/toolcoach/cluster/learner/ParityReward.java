package dev.toolcoach.cluster.learner;

import dev.toolcoach.rewards.Reward;
import dev.toolcoach.trace.TokenRecord;

/** The share of generated tokens whose id has the example's parity; an example without one cannot be scored. */
final class ParityReward {
    static final Reward INSTANCE = Reward.perTrace("parity", (trace, example) -> {
        int parity = (int) example.number("parity").orElseThrow(() ->
                new IllegalArgumentException("example " + example.queryId() + " has no field 'parity'"));
        TokenRecord t = trace.tokens();
        int hits = 0;
        for (int i = 0; i < t.length(); i++) {
            hits += t.lossMask()[i] == 1 && t.tokenIds()[i] % 2 == parity ? 1 : 0;
        }
        return (double) hits / t.generatedCount();
    });

    private ParityReward() {
    }
}
