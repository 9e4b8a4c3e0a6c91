package dev.toolcoach.cluster.coach;

import dev.toolcoach.cluster.protocol.AthleteProtocol.AssignRollout;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachCursor;
import dev.toolcoach.cluster.protocol.GroupCounts;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;
import dev.toolcoach.cluster.protocol.CoachProtocol.CoachProgress;
import dev.toolcoach.tasks.TaskExample;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * All of the coach's logic, without Akka: the dataset cursor, query groups of G rollouts, work pulling
 * with per-athlete credit, the bound on open groups, deadlines, re-dispatch, duplicate discarding and
 * the accounts. Every state change returns the assignments it made possible, for the caller to deliver. A rollout
 * taken back more than {@code maxRedispatches} times gives its group up: its rollouts stop going out and the group
 * waits in {@link #takeGivenUp()} for the caller to ask the learner to drop it (the learner's {@code GroupDropped}
 * with reason {@code REDISPATCH_LIMIT} closes and counts it, like any other drop).
 * Not thread-safe: one actor owns it.
 *
 * @param <A> how the caller names an athlete (an actor ref in the cluster)
 */
public final class RolloutScheduler<A> {

    /** What became of a {@link #rolloutReceived} report. */
    public enum Receipt { COUNTED, DUPLICATE, UNKNOWN }

    private enum State { QUEUED, OUT, DONE, GIVEN_UP }

    private static final String GROUP_PREFIX = "g";

    private static final class Group {
        final String id;
        final int exampleIndex;
        final TaskExample example;
        final List<Rollout> rollouts = new ArrayList<>();
        int done;

        Group(String id, int exampleIndex, TaskExample example) {
            this.id = id;
            this.exampleIndex = exampleIndex;
            this.example = example;
        }
    }

    private static final class Rollout {
        final String id;
        final Group group;
        State state = State.QUEUED;
        int sends;

        Rollout(String id, Group group) {
            this.id = id;
            this.group = group;
        }
    }

    private record InFlight<A>(Rollout rollout, A athlete, Instant deadline) {
    }

    private final CoachSettings settings;
    private final List<TaskExample> queries;
    private final Clock clock;

    private int nextExample;
    private long epoch;
    private long nextGroup;
    private int policyVersion;

    private final Map<String, Group> openGroups = new LinkedHashMap<>();
    private final Map<String, Rollout> openRollouts = new LinkedHashMap<>();
    /** Taken back from an athlete; served before anything else. */
    private final Deque<Rollout> retries = new ArrayDeque<>();
    /** Rollouts of open groups never sent yet. */
    private final Deque<Rollout> fresh = new ArrayDeque<>();
    /** Insertion ordered, so take-backs happen in dispatch order and runs are reproducible. */
    private final Map<String, InFlight<A>> inFlight = new LinkedHashMap<>();
    /** Rollouts each athlete asked for and has not been given yet. */
    private final Map<A, Integer> credit = new LinkedHashMap<>();
    /** Groups given up since the caller last asked, for it to have the learner drop them. */
    private final List<String> givenUp = new ArrayList<>();

    private long groupsDispatched;
    private long groupsCompleted;
    private long closedGroupsCompleted;
    private long groupsTrained;
    private GroupCounts groupsDropped = GroupCounts.NONE;
    private long rolloutsDispatched;
    private long rolloutsRedispatched;
    private long rolloutsCompleted;
    private long rolloutsCancelled;
    private long deadlinesMissed;
    private long athleteLosses;
    private long duplicatesDiscarded;
    private long reportsIgnored;

    private RolloutScheduler(CoachSettings settings, List<TaskExample> queries, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.queries = List.copyOf(queries);
        this.clock = Objects.requireNonNull(clock, "clock");
        if (this.queries.isEmpty()) throw new IllegalArgumentException("the job has no training queries");
    }

    /** A new job from the first query. */
    public static <A> RolloutScheduler<A> start(CoachSettings settings, List<TaskExample> queries, Clock clock) {
        return new RolloutScheduler<>(settings, queries, clock);
    }

    /**
     * The job as a checkpoint left it: the dataset continues where the cursor points, and the groups
     * open at the checkpoint start again from scratch, before any new group.
     *
     * @throws IllegalArgumentException when the cursor does not fit the queries (a changed dataset)
     */
    public static <A> RolloutScheduler<A> resume(CoachSettings settings, List<TaskExample> queries, Clock clock, CoachCursor cursor) {
        RolloutScheduler<A> scheduler = new RolloutScheduler<>(settings, queries, clock);
        scheduler.restore(cursor);
        return scheduler;
    }

    private void restore(CoachCursor cursor) {
        if (cursor.nextExample() < 0 || cursor.nextExample() >= queries.size()) {
            throw new IllegalArgumentException("checkpoint cursor points at example " + cursor.nextExample()
                    + " but the dataset has " + queries.size());
        }
        for (CoachCursor.OpenGroup open : cursor.openGroups()) {
            int index = open.exampleIndex();
            if (index < 0 || index >= queries.size() || !queries.get(index).id().equals(open.queryId())) {
                throw new IllegalArgumentException("checkpoint group " + open.groupId() + " expects query " + open.queryId()
                        + " at example " + index + ", which the dataset does not have there");
            }
            addGroup(open.groupId(), index);
        }
        nextExample = cursor.nextExample();
        epoch = cursor.epoch();
        nextGroup = cursor.nextGroup();
        policyVersion = cursor.policyVersion();
        groupsTrained = cursor.groupsTrained();
        groupsCompleted = cursor.groupsCompleted();
        closedGroupsCompleted = cursor.groupsCompleted();
        groupsDropped = cursor.groupsDropped();
        groupsDispatched = groupsTrained + groupsDropped.total() + openGroups.size();
    }

    /** Work pulling: the athlete is free for {@code count} more rollouts. */
    public List<Assignment<A>> request(A athlete, int count) {
        if (count < 1) throw new IllegalArgumentException("an athlete must ask for at least 1 rollout, asked for " + count);
        credit.merge(athlete, count, (held, more) -> (int) Math.min(Integer.MAX_VALUE, (long) held + more)); // saturate, never wrap
        return dispatch();
    }

    /** The athlete is gone: its credit lapses and its rollouts in flight go out again first. */
    public List<Assignment<A>> athleteLeft(A athlete) {
        credit.remove(athlete);
        List<Rollout> lost = new ArrayList<>();
        for (Iterator<InFlight<A>> it = inFlight.values().iterator(); it.hasNext(); ) {
            InFlight<A> held = it.next();
            if (held.athlete().equals(athlete)) {
                it.remove();
                athleteLosses++;
                lost.add(held.rollout());
            }
        }
        lost.forEach(this::takeBack);
        return dispatch();
    }

    /** Rollouts whose deadline has passed (by the injected clock) go out again first. */
    public List<Assignment<A>> expireDeadlines() {
        Instant now = clock.instant();
        List<Rollout> late = new ArrayList<>();
        for (Iterator<InFlight<A>> it = inFlight.values().iterator(); it.hasNext(); ) {
            InFlight<A> held = it.next();
            if (!held.deadline().isAfter(now)) {
                it.remove();
                deadlinesMissed++;
                late.add(held.rollout());
            }
        }
        late.forEach(this::takeBack);
        return dispatch();
    }

    /** The learner holds this rollout's trace: the rollout is done, whichever athlete delivered it. */
    public Receipt rolloutReceived(String rolloutId) {
        Rollout rollout = openRollouts.get(rolloutId);
        if (rollout == null) {
            if (isClosed(groupIdOf(rolloutId))) {
                duplicatesDiscarded++;
                return Receipt.DUPLICATE;
            }
            reportsIgnored++;
            return Receipt.UNKNOWN;
        }
        if (rollout.state == State.DONE) {
            duplicatesDiscarded++;
            return Receipt.DUPLICATE;
        }
        // a given-up group's rollout that still reached the learner counts: the learner may yet complete the group
        withdraw(rollout);
        rollout.state = State.DONE;
        rolloutsCompleted++;
        if (++rollout.group.done == settings.plan().groupSize()) groupsCompleted++;
        return Receipt.COUNTED;
    }

    /** The learner trained on the group; it closes, which may let a new group open. Ignored unless the group is open. */
    public List<Assignment<A>> groupTrained(String groupId, int version) {
        Group group = openGroups.get(groupId);
        if (group == null) {
            reportsIgnored++;
            return List.of();
        }
        close(group);
        groupsTrained++;
        policyVersion = Math.max(policyVersion, version);
        return dispatch();
    }

    /** The learner dropped the group; it closes, counted under its reason. Ignored unless the group is open. */
    public List<Assignment<A>> groupDropped(String groupId, GroupDropped.Reason reason) {
        Group group = openGroups.get(groupId);
        if (group == null) {
            reportsIgnored++;
            return List.of();
        }
        close(group);
        groupsDropped = groupsDropped.plus(reason);
        return dispatch();
    }

    /**
     * The groups given up since the last call (a rollout of each was taken back more than {@code maxRedispatches}
     * times); each stays open, sending nothing, until the learner reports it dropped or trained.
     */
    public List<String> takeGivenUp() {
        List<String> out = List.copyOf(givenUp);
        givenUp.clear();
        return out;
    }

    /** The group is neither trained nor dropped yet. */
    public boolean isOpen(String groupId) {
        return openGroups.containsKey(groupId);
    }

    /** Every group the job allows was opened and has closed. */
    public boolean finished() {
        return !moreGroupsAllowed() && openGroups.isEmpty();
    }

    public CoachProgress progress() {
        return new CoachProgress(groupsDispatched, groupsCompleted, groupsTrained, groupsDropped, openGroups.size(),
                rolloutsDispatched, rolloutsRedispatched, rolloutsCompleted, rolloutsCancelled, inFlight.size(), retries.size(),
                deadlinesMissed, athleteLosses, duplicatesDiscarded, reportsIgnored, policyVersion, finished());
    }

    /** The cursor a checkpoint stores; {@link #resume} continues from it. */
    public CoachCursor snapshot() {
        List<CoachCursor.OpenGroup> open = openGroups.values().stream()
                .map(g -> new CoachCursor.OpenGroup(g.id, g.exampleIndex, g.example.id())).toList();
        return new CoachCursor(nextExample, epoch, nextGroup, open, policyVersion, groupsTrained, closedGroupsCompleted, groupsDropped);
    }

    /** Hands out work round-robin to athletes with credit until credit or work runs out. */
    private List<Assignment<A>> dispatch() {
        List<Assignment<A>> assignments = new ArrayList<>();
        while (!credit.isEmpty()) {
            for (Iterator<Map.Entry<A, Integer>> it = credit.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<A, Integer> entry = it.next();
                Rollout rollout = nextRollout();
                if (rollout == null) return assignments;
                assignments.add(assign(entry.getKey(), rollout));
                if (entry.getValue() == 1) it.remove();
                else entry.setValue(entry.getValue() - 1);
            }
        }
        return assignments;
    }

    private Rollout nextRollout() {
        if (!retries.isEmpty()) return retries.poll();
        if (fresh.isEmpty() && mayOpenGroup()) openGroup();
        return fresh.poll();
    }

    private boolean mayOpenGroup() {
        return openGroups.size() < settings.plan().maxGroupsInFlight() && moreGroupsAllowed();
    }

    /**
     * The job may open another group: fewer than {@code groupLimit} opened that were not dropped (each drop is
     * refilled by a fresh query, so steps stay full), and fewer than {@code sampleLimit} in all.
     */
    private boolean moreGroupsAllowed() {
        return groupsDispatched - groupsDropped.total() < settings.plan().groupLimit() && groupsDispatched < settings.plan().sampleLimit();
    }

    private void openGroup() {
        int index = nextExample;
        if (++nextExample == queries.size()) {
            nextExample = 0;
            epoch++;
        }
        addGroup(GROUP_PREFIX + nextGroup++, index);
        groupsDispatched++;
    }

    private void addGroup(String groupId, int exampleIndex) {
        Group group = new Group(groupId, exampleIndex, queries.get(exampleIndex));
        for (int i = 0; i < settings.plan().groupSize(); i++) {
            Rollout rollout = new Rollout(groupId + "/" + i, group);
            group.rollouts.add(rollout);
            openRollouts.put(rollout.id, rollout);
            fresh.add(rollout);
        }
        openGroups.put(groupId, group);
    }

    private Assignment<A> assign(A athlete, Rollout rollout) {
        if (rollout.sends > 0) rolloutsRedispatched++;
        else rolloutsDispatched++;
        rollout.sends++;
        rollout.state = State.OUT;
        inFlight.put(rollout.id, new InFlight<>(rollout, athlete, clock.instant().plus(settings.rolloutTimeout())));
        return new Assignment<>(athlete, new AssignRollout(rollout.id, rollout.group.id, rollout.group.example, policyVersion));
    }

    /** Taken out of flight already; queued again, or its group given up (unless an earlier take-back gave it up). */
    private void takeBack(Rollout rollout) {
        if (rollout.state == State.GIVEN_UP) return;
        if (rollout.sends > settings.maxRedispatches()) {
            giveUp(rollout.group);
            return;
        }
        rollout.state = State.QUEUED;
        retries.add(rollout);
    }

    /** None of the group's rollouts goes out again; the caller has the learner drop it. */
    private void giveUp(Group group) {
        for (Rollout rollout : group.rollouts) {
            if (rollout.state == State.DONE || rollout.state == State.GIVEN_UP) continue;
            withdraw(rollout);
            rollout.state = State.GIVEN_UP;
        }
        givenUp.add(group.id);
    }

    /** Takes a not-yet-done rollout out of flight or out of its queue. */
    private void withdraw(Rollout rollout) {
        if (rollout.state == State.OUT) inFlight.remove(rollout.id);
        else if (rollout.state == State.QUEUED) (rollout.sends > 0 ? retries : fresh).remove(rollout);
    }

    private void close(Group group) {
        for (Rollout rollout : group.rollouts) {
            if (rollout.state != State.DONE) {
                withdraw(rollout);
                rolloutsCancelled++;
            }
            openRollouts.remove(rollout.id);
        }
        if (group.done == settings.plan().groupSize()) closedGroupsCompleted++;
        openGroups.remove(group.id);
    }

    /** Group ids are {@code g<n>} with n counting up, so a closed group needs no record of its own. */
    private boolean isClosed(String groupId) {
        if (!groupId.startsWith(GROUP_PREFIX) || openGroups.containsKey(groupId)) return false;
        try {
            long sequence = Long.parseLong(groupId.substring(GROUP_PREFIX.length()));
            return sequence >= 0 && sequence < nextGroup;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String groupIdOf(String rolloutId) {
        int slash = rolloutId.lastIndexOf('/');
        return slash < 0 ? rolloutId : rolloutId.substring(0, slash);
    }
}
