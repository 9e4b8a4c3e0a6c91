package dev.toolcoach.rewards.judge;

import java.util.concurrent.atomic.AtomicLong;

/** Running counts of what the judge did, safe to read while it works. */
public final class JudgeStats {

    private final AtomicLong groupsRanked = new AtomicLong();
    private final AtomicLong groupsDropped = new AtomicLong();
    private final AtomicLong invalidReplies = new AtomicLong();
    private final AtomicLong failedCalls = new AtomicLong();

    void ranked() {
        groupsRanked.incrementAndGet();
    }

    void dropped() {
        groupsDropped.incrementAndGet();
    }

    void invalidReply() {
        invalidReplies.incrementAndGet();
    }

    void failedCall() {
        failedCalls.incrementAndGet();
    }

    public Snapshot snapshot() {
        return new Snapshot(groupsRanked.get(), groupsDropped.get(), invalidReplies.get(), failedCalls.get());
    }

    /**
     * @param groupsRanked   groups that got a verdict
     * @param groupsDropped  groups dropped after every attempt failed
     * @param invalidReplies replies that were not a valid ranking (each retried or ending in a drop)
     * @param failedCalls    judge calls that failed in transport (timeout, server error)
     */
    public record Snapshot(long groupsRanked, long groupsDropped, long invalidReplies, long failedCalls) {
    }
}
