package dev.toolcoach.cluster.protocol;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.toolcoach.cluster.protocol.CoachProtocol.GroupDropped;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Groups closed without training, counted by why ({@link GroupDropped.Reason}): the one shape the coach's accounts
 * ({@link CoachProtocol.CoachProgress}, {@link CoachProtocol.CoachCursor}), the learner's
 * ({@link LearnerProtocol.LearnerAccounts}) and their status share. Every reason is present, zero where none, so a
 * report lists them all. Immutable; written and read as a JSON object of reason to count, the shape a checkpoint's
 * cursor has always had.
 */
public final class GroupCounts {

    /** No group dropped. */
    public static final GroupCounts NONE = of(Map.of());

    private final Map<GroupDropped.Reason, Long> byReason;

    private GroupCounts(Map<GroupDropped.Reason, Long> byReason) {
        this.byReason = byReason;
    }

    /** The counts given, zero for every reason not among them. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static GroupCounts of(Map<GroupDropped.Reason, Long> counts) {
        EnumMap<GroupDropped.Reason, Long> all = new EnumMap<>(GroupDropped.Reason.class);
        for (GroupDropped.Reason reason : GroupDropped.Reason.values()) {
            long n = counts.getOrDefault(reason, 0L);
            if (n < 0) throw new IllegalArgumentException("a count of dropped groups cannot be negative: " + reason + " " + n);
            all.put(reason, n);
        }
        return new GroupCounts(Collections.unmodifiableMap(all));
    }

    /** One more group dropped for {@code reason}. */
    public GroupCounts plus(GroupDropped.Reason reason) {
        EnumMap<GroupDropped.Reason, Long> next = new EnumMap<>(byReason);
        next.merge(reason, 1L, Long::sum);
        return new GroupCounts(Collections.unmodifiableMap(next));
    }

    public long get(GroupDropped.Reason reason) {
        return byReason.get(Objects.requireNonNull(reason, "reason"));
    }

    /** Every dropped group, whatever the reason. */
    public long total() {
        return byReason.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Every reason with its count, in the reasons' order. */
    @JsonValue
    public Map<GroupDropped.Reason, Long> byReason() {
        return byReason;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GroupCounts other && byReason.equals(other.byReason);
    }

    @Override
    public int hashCode() {
        return byReason.hashCode();
    }

    @Override
    public String toString() {
        return byReason.toString();
    }
}
