package dev.toolcoach.rewards.judge;

import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * The order a group's rollouts are shown to the judge. LLM judges favour some positions (often the
 * first), and rollouts arrive in a systematic order (by athlete, by finishing time), so by default
 * the group is shuffled, seeded by its rollout ids so a rerun shows the same order.
 *
 * @param shownToGroup for each shown position, the rollout's index in the group
 */
record PresentationOrder(List<Integer> shownToGroup) {

    PresentationOrder {
        shownToGroup = List.copyOf(shownToGroup);
    }

    static PresentationOrder of(List<Trace> group, boolean shuffle) {
        List<Integer> order = new ArrayList<>(IntStream.range(0, group.size()).boxed().toList());
        if (shuffle) {
            long seed = 17;
            for (Trace t : group) seed = seed * 31 + t.rolloutId().hashCode();
            Collections.shuffle(order, new Random(seed));
        }
        return new PresentationOrder(order);
    }

    <T> List<T> shown(List<T> group) {
        return shownToGroup.stream().map(group::get).toList();
    }

    /** Per-rollout values given in shown order, put back in group order. */
    List<Double> toGroup(List<Double> shownValues) {
        Double[] out = new Double[shownValues.size()];
        for (int k = 0; k < out.length; k++) out[shownToGroup.get(k)] = shownValues.get(k);
        return List.of(out);
    }

    /** A ranking over shown positions as one over group indices. */
    Ranking toGroup(Ranking shownRanking) {
        return new Ranking(shownRanking.tiers().stream()
                .map(tier -> tier.stream().map(shownToGroup::get).toList()).toList());
    }
}
