package dev.toolcoach.rewards;

import dev.toolcoach.tasks.RewardContext;
import dev.toolcoach.tasks.TraceReward;
import dev.toolcoach.trace.Trace;

import java.util.Set;

/** Behaviour rule "never call these": 1 when the run called none of the forbidden tools, else 0. */
public final class ForbiddenToolReward implements TraceReward {

    private final Set<String> forbidden;

    public ForbiddenToolReward(Set<String> forbidden) {
        if (forbidden.isEmpty()) throw new IllegalArgumentException("name at least one forbidden tool");
        this.forbidden = Set.copyOf(forbidden);
    }

    @Override
    public double score(Trace trace, RewardContext example) {
        return trace.toolCalls().stream().anyMatch(c -> forbidden.contains(c.name())) ? 0.0 : 1.0;
    }
}
