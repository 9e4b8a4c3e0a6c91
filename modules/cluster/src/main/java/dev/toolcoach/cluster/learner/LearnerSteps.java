package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerStatus;
import dev.toolcoach.trace.Trace;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The learner's step state for one job, without Akka: traces into groups, when a step is due, whether
 * one is under way, which job step it was, and when the job is over. A step is due when
 * {@code groupsPerStep} groups are ready, or when every group the job still has is ready (a smaller last
 * batch, e.g. after drops); one step (with its checkpoint) runs at a time. Not thread-safe: the learner
 * actor owns it.
 */
public final class LearnerSteps {

    /** What the learner does next. */
    public sealed interface Next {
    }

    /** Train on these groups; the learner is busy until {@link #idle()}. */
    public record Train(List<CompleteGroup> batch) implements Next {
        public Train {
            batch = List.copyOf(batch);
        }
    }

    /** No step is due yet. */
    public enum Wait implements Next { INSTANCE }

    /** Every group is closed: report the end of the job (once). */
    public enum Finish implements Next { INSTANCE }

    /** A step is under way, or the end was already reported: nothing changes. */
    public enum Nothing implements Next { INSTANCE }

    private final LearnerSettings settings;
    private final GroupCollector collector;
    private long closed;
    private int version;
    private long stepsDone;
    private double lastMeanReward = Double.NaN;
    private boolean busy;
    private boolean finishReported;

    /** @param version the policy version the learner starts with */
    public LearnerSteps(LearnerSettings settings, int version, AtomicReference<LearnerAccounts> accounts) {
        this.settings = settings;
        this.collector = new GroupCollector(settings.groupSize(), settings.maxPolicyLag(), accounts);
        this.closed = settings.groupsClosedBefore();
        this.version = version;
    }

    /**
     * The job's step after {@code groupsClosed} groups closed: batches of groups taken, a partly full last
     * batch included. The one formula, so a resumed job and the learner count steps alike.
     */
    public static long jobStep(long groupsClosed, int groupsPerStep) {
        return (groupsClosed + groupsPerStep - 1) / groupsPerStep;
    }

    /** Takes a trace; a group it completes and that is dropped (stale, unusable) is closed at once. */
    public Admission offer(Trace trace) {
        Admission admission = collector.offer(trace, version);
        if (admission == Admission.GROUP_STALE || admission == Admission.GROUP_UNUSABLE) closed++;
        return admission;
    }

    /** Closes a group the coach gave up, unless it is already complete; true when it was closed here. */
    public boolean giveUp(String groupId) {
        if (!collector.giveUp(groupId)) return false;
        closed++;
        return true;
    }

    /** Decides the next move; a {@link Train} or {@link Finish} is handed out once. */
    public Next next() {
        if (busy || finishReported) return Nothing.INSTANCE;
        if (finished()) {
            // the learner stays up to ack late duplicates and answer status until the job's system stops
            finishReported = true;
            return Finish.INSTANCE;
        }
        List<CompleteGroup> batch = nextBatch();
        if (batch.isEmpty()) return Wait.INSTANCE;
        busy = true;
        return new Train(batch);
    }

    private List<CompleteGroup> nextBatch() {
        int ready = collector.readyCount();
        if (ready >= settings.groupsPerStep()) return collector.takeReady(settings.groupsPerStep());
        if (ready > 0 && closed + ready == settings.groupLimit()) return collector.takeReady(ready);
        return List.of();
    }

    /**
     * The step's groups are closed (trained, skipped or dropped); the learner stays busy until {@link #idle()}
     * (a checkpoint may follow).
     *
     * @param versionAfter the policy version after the step
     * @param meanReward   mean reward of the step's scored traces (NaN when none was scored)
     * @return the job step this was
     */
    public long stepDone(int groupsClosed, int versionAfter, double meanReward) {
        if (!busy) throw new IllegalStateException("no step is under way");
        stepsDone++;
        version = versionAfter;
        lastMeanReward = meanReward;
        closed += groupsClosed;
        return jobStep(closed, settings.groupsPerStep());
    }

    /** The step and its checkpoint are over: the next step may start. */
    public void idle() {
        busy = false;
    }

    public int version() {
        return version;
    }

    public boolean finished() {
        return closed >= settings.groupLimit();
    }

    /** The learner's status with these accounts. */
    public LearnerStatus status(LearnerAccounts a) {
        return new LearnerStatus(stepsDone, version, a.received(), a.duplicates(), a.trained(), a.skippedNoSignal(),
                a.droppedStale() + a.droppedUnusable() + a.droppedRewardFailure(), collector.readyCount(), lastMeanReward,
                busy, finished());
    }
}
