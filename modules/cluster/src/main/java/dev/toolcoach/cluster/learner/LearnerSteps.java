package dev.toolcoach.cluster.learner;

import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerAccounts;
import dev.toolcoach.cluster.protocol.LearnerProtocol.LearnerStatus;
import dev.toolcoach.learn.batch.ScoredGroup;
import dev.toolcoach.trace.Trace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The learner's step state for one job, without Akka: traces into groups, groups scored as they complete, when a step
 * is due, whether one is under way, which job step it was, and when the job is over. A complete group is scored at
 * once (off the actor's thread; {@link #takeCompleted()}, {@link #scored}); with dynamic sampling a group whose
 * rewards are all equal is dropped there ({@link Disposition#NO_SIGNAL}) and the coach opens a fresh query in its place.
 * A step is due when {@code groupsPerStep} scored groups are ready, or when every group the job still has is ready (a
 * smaller last batch, e.g. after drops or when the bound on sampling is reached); one step (with its checkpoint) runs at
 * a time. It alone keeps the learner's counts ({@link LearnerAccounts}): the collector, the scorer and the training
 * step return what they did, and it applies that here. Not thread-safe: the learner actor owns it.
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
     * @param noSignal      of the drops, the groups whose rewards were all equal (dynamic sampling), with their rewards:
     *                        what was sampled and not trained on, for the figures over every sampled rollout
     * @param rewardDropped ids of the groups the reward could not score
     */
    public record Sampling(int groups, List<ScoredGroup> noSignal, List<String> rewardDropped) {
        public Sampling {
            noSignal = List.copyOf(noSignal);
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
    private final Predicate<ScoredGroup> hasSignal;
    private LearnerAccounts accounts = LearnerAccounts.NONE;
    private final ArrayDeque<ScoredGroup> ready = new ArrayDeque<>();
    private long closed;
    /** Of the closed groups, those dropped (for any reason): they take no part in a step. */
    private long dropped;
    private int droppedSinceBatch;
    private final List<ScoredGroup> noSignalSinceBatch = new ArrayList<>();
    private final List<String> rewardDroppedSinceBatch = new ArrayList<>();
    private int version;
    private long stepsDone;
    private double lastMeanReward = Double.NaN;
    private double lastInformativeFraction = Double.NaN;
    private int lastGroupsSampled;
    /** The step under way, from {@link #next()} to {@link #stepDone}. */
    private Train current;
    private boolean busy;
    private boolean finishReported;

    /**
     * @param version   the policy version the learner starts with
     * @param hasSignal whether a training step could learn from a scored group (the job's algorithm decides)
     */
    public LearnerSteps(LearnerSettings settings, int version, Predicate<ScoredGroup> hasSignal) {
        this.settings = settings;
        this.hasSignal = hasSignal;
        this.collector = new GroupCollector(settings.plan().groupSize(), settings.plan().maxPolicyLag());
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
        accounts = accounts.plusReceived();
        switch (admission) {
            case DUPLICATE -> accounts = accounts.plusDuplicate();
            case GROUP_READY -> accounts = accounts.plusComplete();
            case GROUP_STALE -> closeDropped(accounts.plusComplete(), GroupDropped.Reason.STALE_POLICY);
            case GROUP_UNUSABLE -> closeDropped(accounts.plusComplete(), GroupDropped.Reason.UNUSABLE);
            case WAITING -> {
            }
        }
        return admission;
    }

    /** Closes a group the coach gave up, unless it is already complete; true when it was closed here. */
    public boolean giveUp(String groupId) {
        if (!collector.giveUp(groupId)) return false;
        closeDropped(accounts, GroupDropped.Reason.REDISPATCH_LIMIT);
        return true;
    }

    /** The complete groups not yet handed out for scoring, oldest completion first; each must come back to {@link #scored}. */
    public List<CompleteGroup> takeCompleted() {
        return collector.takeReady(Integer.MAX_VALUE);
    }

    /** A complete group's score: dropped when the reward could not score it, or (sampling dynamically) without signal. */
    public Disposition scored(GroupScorer.Score score) {
        if (score instanceof GroupScorer.Unscored) {
            rewardDroppedSinceBatch.add(score.groupId());
            closeDropped(accounts, GroupDropped.Reason.REWARD_FAILED);
            return Disposition.REWARD_FAILED;
        }
        ScoredGroup group = ((GroupScorer.Scored) score).group();
        if (settings.plan().dynamicSampling() && !hasSignal.test(group)) {
            noSignalSinceBatch.add(group);
            closeDropped(accounts, GroupDropped.Reason.NO_SIGNAL);
            return Disposition.NO_SIGNAL;
        }
        ready.add(group);
        return Disposition.READY;
    }

    private void closeDropped(LearnerAccounts before, GroupDropped.Reason reason) {
        accounts = before.plusDropped(reason);
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
        noSignalSinceBatch.clear();
        rewardDroppedSinceBatch.clear();
        lastGroupsSampled = sampling.groups();
        current = new Train(batch, sampling);
        return current;
    }

    /**
     * A full batch, or a smaller one when every group the job still has is ready: the coach opens no group while
     * {@code groupLimit} groups (not counting dropped ones) or {@code sampleLimit} in all are open or closed,
     * and every group it opened is then closed or ready here.
     */
    private List<ScoredGroup> nextBatch() {
        int n = ready.size();
        boolean last = n > 0 && (closed - dropped + n >= settings.plan().groupLimit() || closed + n >= settings.plan().sampleLimit());
        if (n < settings.plan().groupsPerStep() && !last) return List.of();
        List<ScoredGroup> batch = new ArrayList<>();
        while (batch.size() < settings.plan().groupsPerStep() && !ready.isEmpty()) batch.add(ready.poll());
        batch.sort(DISPATCH_ORDER);
        return batch;
    }

    /**
     * The step under way is done: its groups are closed (trained or skipped) and counted. The learner stays busy until
     * {@link #idle()} (a checkpoint may follow).
     *
     * @return what the job's listener hears of the step, with its job step
     */
    public StepReport stepDone(StepResult result) {
        if (!busy || current == null) throw new IllegalStateException("no step is under way");
        Train train = current;
        current = null;
        int groups = train.batch().size();
        int informative = groups - result.skippedGroups();
        accounts = accounts.plusStep(informative, result.skippedGroups());
        stepsDone++;
        version = result.version();
        lastMeanReward = StepReport.meanReward(train.batch());
        lastInformativeFraction = informative / (double) Math.max(1, lastGroupsSampled);
        closed += groups;
        long jobStep = jobStep(closed - dropped, settings.plan().groupsPerStep());
        return new StepReport(jobStep, version, train.batch(), train.sampling().noSignal(), train.sampling().rewardDropped(),
                train.sampling().groups(), informative, result.metrics(), result.published().isPresent(), result.elapsed(), accounts);
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
        return closed - dropped >= settings.plan().groupLimit() || closed >= settings.plan().sampleLimit();
    }

    /** The learner's counts now. */
    public LearnerAccounts accounts() {
        return accounts;
    }

    public LearnerStatus status() {
        return new LearnerStatus(stepsDone, version, accounts, collector.readyCount() + ready.size(), lastMeanReward,
                lastGroupsSampled, lastInformativeFraction, busy, finished());
    }
}
