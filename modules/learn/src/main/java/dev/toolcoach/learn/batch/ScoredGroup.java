package dev.toolcoach.learn.batch;

import java.util.List;
import java.util.Objects;

/** The G rollouts of one query, scored together (advantages and DPO pairs are relative to the group). */
public record ScoredGroup(String groupId, List<ScoredTrace> traces) {
    public ScoredGroup {
        Objects.requireNonNull(groupId, "groupId");
        traces = List.copyOf(traces);
        if (traces.isEmpty()) {
            throw new IllegalArgumentException("group " + groupId + " has no traces");
        }
    }

    /** True when every reward is equal: such a group carries no learning signal for GRPO. */
    public boolean hasZeroVariance() {
        double first = traces.get(0).reward();
        return traces.stream().allMatch(t -> t.reward() == first);
    }

    public double[] rewards() {
        return traces.stream().mapToDouble(ScoredTrace::reward).toArray();
    }
}
