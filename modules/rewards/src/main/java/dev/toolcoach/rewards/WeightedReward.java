package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.trace.Trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** A weighted sum of rewards; if any part drops the group, the sum drops it too, saying which part. */
public final class WeightedReward implements Reward {

    /** One part of the sum. */
    public record Part(Reward reward, double weight) {
        public Part {
            Objects.requireNonNull(reward, "reward");
            if (!Double.isFinite(weight)) throw new IllegalArgumentException("weight must be finite: " + weight);
        }
    }

    private final List<Part> parts;
    private final String name;

    public WeightedReward(List<Part> parts) {
        if (parts.isEmpty()) throw new IllegalArgumentException("a weighted reward needs at least one part");
        this.parts = List.copyOf(parts);
        this.name = parts.stream().map(p -> p.weight() + "*" + p.reward().name())
                .collect(Collectors.joining(" + "));
    }

    public static WeightedReward of(Reward first, double firstWeight, Reward second, double secondWeight) {
        return new WeightedReward(List.of(new Part(first, firstWeight), new Part(second, secondWeight)));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GroupOutcome scoreGroup(List<Trace> group, RewardContext example) {
        List<Double> sum = new ArrayList<>(Collections.nCopies(group.size(), 0.0));
        for (Part part : parts) {
            GroupOutcome outcome = part.reward().scoreGroup(group, example);
            if (outcome instanceof GroupOutcome.Dropped d) {
                return GroupOutcome.dropped("part '" + part.reward().name() + "' dropped the group: " + d.reason());
            }
            List<Double> scores = ((GroupOutcome.Scored) outcome).rewards();
            for (int i = 0; i < sum.size(); i++) sum.set(i, sum.get(i) + part.weight() * scores.get(i));
        }
        return GroupOutcome.scored(sum);
    }
}
