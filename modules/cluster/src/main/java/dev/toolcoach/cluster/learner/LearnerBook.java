package dev.toolcoach.cluster.learner;

import dev.toolcoach.trace.Trace;

import java.util.List;

/**
 * The learner's bookkeeping of one job, without Akka: traces into groups, when a step is due, and
 * when the job is over. A step is due when {@code groupsPerStep} groups are ready, or when every
 * group the job still has is ready (a smaller last batch, e.g. after drops). Not thread-safe: the
 * learner actor owns it.
 */
public final class LearnerBook {
    private final LearnerSettings settings;
    private final GroupCollector collector;
    private long closed;

    public LearnerBook(LearnerSettings settings, LearnerLedger ledger) {
        this.settings = settings;
        this.collector = new GroupCollector(settings.groupSize(), settings.maxPolicyLag(), ledger);
        this.closed = settings.groupsClosedBefore();
    }

    /** Takes a trace; a group it completes and that is dropped (stale, unusable) is closed at once. */
    public Admission offer(Trace trace, long currentVersion) {
        Admission admission = collector.offer(trace, currentVersion);
        if (admission == Admission.GROUP_STALE || admission == Admission.GROUP_UNUSABLE) closed++;
        return admission;
    }

    /** The groups of the next step, taken from the ready queue; empty when no step is due. */
    public List<CompleteGroup> nextBatch() {
        int ready = collector.readyCount();
        if (ready >= settings.groupsPerStep()) return collector.takeReady(settings.groupsPerStep());
        if (ready > 0 && closed + ready == settings.groupLimit()) return collector.takeReady(ready);
        return List.of();
    }

    /** Groups a step trained, skipped or dropped. */
    public void closed(int groups) {
        closed += groups;
    }

    /** Groups closed in the whole job (a resumed job counts those closed before it too). */
    public long closedGroups() {
        return closed;
    }

    public boolean finished() {
        return closed >= settings.groupLimit();
    }

    public int waiting() {
        return collector.readyCount();
    }
}
