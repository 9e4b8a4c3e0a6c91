package dev.toolcoach.cluster.learner;

import dev.toolcoach.trace.Trace;

import java.util.List;
import java.util.Objects;

/**
 * All G traces of one group, in arrival order, ready to be scored.
 *
 * @param groupId             the group
 * @param traces              its traces
 * @param oldestPolicyVersion the oldest policy version that generated any of its tokens, -1 when none carries one
 */
public record CompleteGroup(String groupId, List<Trace> traces, int oldestPolicyVersion) {
    public CompleteGroup {
        Objects.requireNonNull(groupId, "groupId");
        traces = List.copyOf(traces);
        if (traces.isEmpty()) {
            throw new IllegalArgumentException("group " + groupId + " has no traces");
        }
    }

    /** How many versions behind {@code currentVersion} the group's oldest token is; 0 when no token carries a version. */
    public int lag(int currentVersion) {
        return oldestPolicyVersion < 0 ? 0 : currentVersion - oldestPolicyVersion;
    }
}
