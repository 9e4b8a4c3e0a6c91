package dev.toolcoach.cluster.learner;

import dev.toolcoach.learn.batch.TrainingSequence;
import dev.toolcoach.trace.Trace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gathers streamed traces into groups of a known size G. A group is judged once, when its last trace
 * arrives: too old for the current policy (its oldest generated token more than {@code maxPolicyLag}
 * versions behind) or holding a trace nothing can be learned from → dropped and counted; otherwise it
 * joins the ready queue, which hands groups out in the order they completed. Counts nothing itself: the
 * {@link Admission} says what happened, and {@link LearnerSteps} counts it. Not thread-safe: the learner owns it.
 */
public final class GroupCollector {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCollector.class);

    private final int groupSize;
    private final int maxPolicyLag;
    private final Map<String, LinkedHashMap<String, Trace>> open = new HashMap<>();
    // a re-dispatched rollout can arrive after its group was judged; remembering the group ids catches it
    private final Set<String> closed = new HashSet<>();
    private final ArrayDeque<CompleteGroup> ready = new ArrayDeque<>();

    public GroupCollector(int groupSize, int maxPolicyLag) {
        if (groupSize < 1) {
            throw new IllegalArgumentException("group size must be at least 1, got " + groupSize);
        }
        if (maxPolicyLag < 0) {
            throw new IllegalArgumentException("max-policy-lag must be 0 or more, got " + maxPolicyLag);
        }
        this.groupSize = groupSize;
        this.maxPolicyLag = maxPolicyLag;
    }

    /**
     * Takes one trace; when it completes its group, the group is judged against {@code currentVersion}.
     *
     * @throws IllegalArgumentException when the trace has no group id (it could never be trained)
     */
    public Admission offer(Trace trace, int currentVersion) {
        if (trace.groupId() == null) {
            throw new IllegalArgumentException("trace of rollout " + trace.rolloutId() + " has no group id");
        }
        String groupId = trace.groupId();
        LinkedHashMap<String, Trace> members = closed.contains(groupId) ? null
                : open.computeIfAbsent(groupId, g -> new LinkedHashMap<>());
        if (members == null || members.containsKey(trace.rolloutId())) {
            return Admission.DUPLICATE;
        }
        members.put(trace.rolloutId(), trace);
        if (members.size() < groupSize) {
            return Admission.WAITING;
        }
        open.remove(groupId);
        closed.add(groupId);
        return judge(new CompleteGroup(groupId, new ArrayList<>(members.values()), oldestVersion(members.values())),
                currentVersion);
    }

    private Admission judge(CompleteGroup group, int currentVersion) {
        int lag = group.lag(currentVersion);
        if (lag > maxPolicyLag) {
            LOG.warn("group dropped: group {} is {} versions behind policy {} (oldest token from version {}, max-policy-lag {})",
                    group.groupId(), lag, currentVersion, group.oldestPolicyVersion(), maxPolicyLag);
            return Admission.GROUP_STALE;
        }
        Optional<String> unusable = firstUnusable(group);
        if (unusable.isPresent()) {
            LOG.warn("group dropped: group {} cannot be trained on: {}", group.groupId(), unusable.get());
            return Admission.GROUP_UNUSABLE;
        }
        ready.add(group);
        return Admission.GROUP_READY;
    }

    /** The learner's own check (at least one generated token, none before the prompt, log-probs <= 0). */
    private static Optional<String> firstUnusable(CompleteGroup group) {
        for (Trace t : group.traces()) {
            try {
                TrainingSequence.from(t.rolloutId(), t.tokens());
            } catch (IllegalArgumentException e) {
                return Optional.of(e.getMessage());
            }
        }
        return Optional.empty();
    }

    private static int oldestVersion(Iterable<Trace> traces) {
        int oldest = Integer.MAX_VALUE;
        for (Trace t : traces) {
            for (int v : t.tokens().policyVersions()) {
                if (v >= 0 && v < oldest) oldest = v; // -1 marks prompt and tool tokens
            }
        }
        return oldest == Integer.MAX_VALUE ? -1 : oldest;
    }

    /**
     * Gives up a group the coach stopped dispatching: its traces so far are discarded and later ones are duplicates.
     *
     * @return false when the group was already complete (ready, trained or dropped): it closes the ordinary way
     */
    public boolean giveUp(String groupId) {
        if (closed.contains(groupId)) return false;
        open.remove(groupId);
        closed.add(groupId);
        LOG.warn("group dropped: {} was given up by the coach after too many re-dispatches", groupId);
        return true;
    }

    /** Up to {@code max} ready groups, oldest completion first, removed from the queue. */
    public List<CompleteGroup> takeReady(int max) {
        List<CompleteGroup> out = new ArrayList<>(Math.min(max, ready.size()));
        while (out.size() < max && !ready.isEmpty()) {
            out.add(ready.poll());
        }
        return out;
    }

    public int readyCount() {
        return ready.size();
    }

    /** Groups with some but not all of their traces. */
    public int openCount() {
        return open.size();
    }
}
