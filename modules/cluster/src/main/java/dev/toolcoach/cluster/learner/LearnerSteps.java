package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.LearnerStatus;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.trace.Trace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The learner's step state for one job, without Akka: traces into groups, groups scored as they complete, when a step
 * is due, whether one is under way, which job step it was, and when the job is over. A complete group is scored at
 * once (off the actor's thread; {@link #takeCompleted()}, {@link #scored}); with dynamic sampling a group whose
 * rewards are all equal is dropped there ({@link Disposition#NO_SIGNAL}) and the coach opens a fresh query in its place.
 * A step is due when {@code groupsPerStep} scored groups are ready, or when every group the job still has is ready (a
 * smaller last batch, e.g. after drops or when the bound on sampling is reached); one step (with its checkpoint) runs at
 * a time. Not thread-safe: the learner actor owns it.
 */
public final class LearnerSteps {

    /** What the learner does next. */
    public sealed interface Next {
    }

    /**
     * Train on these groups; the learner is busy until {@link #idle()}.
     *
     * @param batch    the scored groups
     * @param sampling what it took to gather them
     */
    public record Train(List<ScoredGroup> batch, Sampling sampling) implements Next {
        public Train {
            batch = List.copyOf(batch);
        }
    }

    /**
     * The groups that closed for one step: its batch and every group dropped since the previous batch was taken.
     *
     * @param groups        groups sampled for the step (each one query): the batch plus the drops
     * @param noSignal      of the drops, groups whose rewards were all equal (dynamic sampling)
     * @param rewardDropped ids of the groups the reward could not score
     */
    public record Sampling(int groups, int noSignal, List<String> rewardDropped) {
        public Sampling {
            rewardDropped = List.copyOf(rewardDropped);
        }
    }

    /** No step is due yet. */
    public enum Wait implements Next { INSTANCE }

    /** Every group is closed: report the end of the job (once). */
    public enum Finish implements Next { INSTANCE }

    /** A step is under way, or the end was already reported: nothing changes. */
    public enum Nothing implements Next { INSTANCE }

    /** What became of a scored group. */
    public enum Disposition {
        /** Waits for a step. */
        READY,
        /** Dropped: its rewards were all equal (dynamic sampling); tell the coach {@code NO_SIGNAL}. */
        NO_SIGNAL,
        /** Dropped: the reward could not score it; tell the coach {@code REWARD_FAILED}. */
        REWARD_FAILED
    }

    /**
     * A batch trains in the order the coach opened its groups (ids {@code g<n>}, n counting up: shorter first, then
     * alphabetical), not the order they completed in: in the synchronous mode the batch is then the same on a rerun
     * however the athletes' timing went, and so are its micro-batches and the update.
     */
    static final Comparator<ScoredGroup> DISPATCH_ORDER = Comparator.comparingInt((ScoredGroup g) -> g.groupId().length())
            .thenComparing(ScoredGroup::groupId);

    private final LearnerSettings settings;
    private final GroupCollector collector;
    private final AtomicReference<LearnerAccounts> accounts;
    private final ArrayDeque<ScoredGroup> ready = new ArrayDeque<>();
    private long closed;
    /** Of the closed groups, those dropped (for any reason): they take no part in a step. */
    private long dropped;
    private int droppedSinceBatch;
    private int noSignalSinceBatch;
    private final List<String> rewardDroppedSinceBatch = new ArrayList<>();
    private int version;
    private long stepsDone;
    private double lastMeanReward = Double.NaN;
    private double lastInformativeFraction = Double.NaN;
    private int lastGroupsSampled;
    private boolean busy;
    private boolean finishReported;

    /** @param version the policy version the learner starts with */
    public LearnerSteps(LearnerSettings settings, int version, AtomicReference<LearnerAccounts> accounts) {
        this.settings = settings;
        this.accounts = accounts;
        this.collector = new GroupCollector(settings.groupSize(), settings.maxPolicyLag(), accounts);
        this.closed = settings.groupsClosedBefore();
        this.dropped = settings.droppedBefore();
        this.version = version;
    }

    /**
     * The job's step after its steps took {@code groupsTaken} groups (closed, not dropped): batches of groups taken, a
     * partly full last batch included. Every batch but the last is full, so steps count 1, 2, ... without a gap. The
     * one formula, so a resumed job and the learner count steps alike.
     */
    public static long jobStep(long groupsTaken, int groupsPerStep) {
        return (groupsTaken + groupsPerStep - 1) / groupsPerStep;
    }

    /** Takes a trace; a group it completes and that is dropped (stale, unusable) is closed at once. */
    public Admission offer(Trace trace) {
        Admission admission = collector.offer(trace, version);
        if (admission == Admission.GROUP_STALE || admission == Admission.GROUP_UNUSABLE) closeDropped();
        return admission;
    }

    /** Closes a group the coach gave up, unless it is already complete; true when it was closed here. */
    public boolean giveUp(String groupId) {
        if (!collector.giveUp(groupId)) return false;
        closeDropped();
        return true;
    }

    /** The complete groups not yet handed out for scoring, oldest completion first; each must come back to {@link #scored}. */
    public List<CompleteGroup> takeCompleted() {
        return collector.takeReady(Integer.MAX_VALUE);
    }

    /**
     * A complete group's score: {@code scored} empty when the reward could not score it; {@code informative} false when
     * nothing can be learned from it (GRPO: all rewards equal).
     */
    public Disposition scored(String groupId, Optional<ScoredGroup> scored, boolean informative) {
        if (scored.isEmpty()) {
            rewardDroppedSinceBatch.add(groupId);
            closeDropped();
            return Disposition.REWARD_FAILED;
        }
        if (!informative && settings.dynamicSampling()) {
            accounts.updateAndGet(LearnerAccounts::plusNoSignal);
            noSignalSinceBatch++;
            closeDropped();
            return Disposition.NO_SIGNAL;
        }
        ready.add(scored.get());
        return Disposition.READY;
    }

    private void closeDropped() {
        closed++;
        dropped++;
        droppedSinceBatch++;
    }

    /** Decides the next move; a {@link Train} or {@link Finish} is handed out once. */
    public Next next() {
        if (busy || finishReported) return Nothing.INSTANCE;
        if (finished()) {
            // the learner stays up to ack late duplicates and answer status until the job's system stops
            finishReported = true;
            return Finish.INSTANCE;
        }
        List<ScoredGroup> batch = nextBatch();
        if (batch.isEmpty()) return Wait.INSTANCE;
        busy = true;
        Sampling sampling = new Sampling(batch.size() + droppedSinceBatch, noSignalSinceBatch, rewardDroppedSinceBatch);
        droppedSinceBatch = 0;
        noSignalSinceBatch = 0;
        rewardDroppedSinceBatch.clear();
        lastGroupsSampled = sampling.groups();
        return new Train(batch, sampling);
    }

    /**
     * A full batch, or a smaller one when every group the job still has is ready: the coach opens no group while
     * {@code groupLimit} groups (not counting dropped ones) or {@code sampleLimit} in all are open or closed,
     * and every group it opened is then closed or ready here.
     */
    private List<ScoredGroup> nextBatch() {
        int n = ready.size();
        boolean last = n > 0 && (closed - dropped + n >= settings.groupLimit() || closed + n >= settings.sampleLimit());
        if (n < settings.groupsPerStep() && !last) return List.of();
        List<ScoredGroup> batch = new ArrayList<>();
        while (batch.size() < settings.groupsPerStep() && !ready.isEmpty()) batch.add(ready.poll());
        batch.sort(DISPATCH_ORDER);
        return batch;
    }

    /**
     * The step's groups are closed (trained or skipped); the learner stays busy until {@link #idle()} (a checkpoint may
     * follow).
     *
     * @param versionAfter       the policy version after the step
     * @param meanReward         mean reward of the step's scored traces (NaN when none was scored)
     * @param informativeGroups  groups of the batch the step could learn from
     * @return the job step this was
     */
    public long stepDone(int groupsClosed, int versionAfter, double meanReward, int informativeGroups) {
        if (!busy) throw new IllegalStateException("no step is under way");
        stepsDone++;
        version = versionAfter;
        lastMeanReward = meanReward;
        lastInformativeFraction = informativeGroups / (double) Math.max(1, lastGroupsSampled);
        closed += groupsClosed;
        return jobStep(closed - dropped, settings.groupsPerStep());
    }

    /** The step and its checkpoint are over: the next step may start. */
    public void idle() {
        busy = false;
    }

    public int version() {
        return version;
    }

    /** Every group the job allows has closed. */
    public boolean finished() {
        return closed - dropped >= settings.groupLimit() || closed >= settings.sampleLimit();
    }

    /** The learner's status with these accounts. */
    public LearnerStatus status(LearnerAccounts a) {
        return new LearnerStatus(stepsDone, version, a.received(), a.duplicates(), a.trained(), a.skippedNoSignal(),
                a.droppedStale() + a.droppedUnusable() + a.droppedRewardFailure(), collector.readyCount() + ready.size(),
                lastMeanReward, lastGroupsSampled, lastInformativeFraction, busy, finished());
    }
}
