package dev.toolcoach.cluster.learner;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters behind {@link LearnerAccounts}, shared by the collector, the scorer and the training
 * step so one place holds the whole picture. Not thread-safe: the learner owns it.
 */
public final class LearnerLedger {
    private static final Logger LOG = LoggerFactory.getLogger(LearnerLedger.class);

    private long received;
    private long duplicates;
    private long groupsComplete;
    private long droppedStale;
    private long droppedUnusable;
    private long droppedRewardFailure;
    private long skippedNoSignal;
    private long trained;
    private String lastDropReason = "";

    void traceReceived() {
        received++;
    }

    void duplicate() {
        duplicates++;
    }

    void groupComplete() {
        groupsComplete++;
    }

    void droppedStale(String reason) {
        droppedStale++;
        dropped(reason);
    }

    void droppedUnusable(String reason) {
        droppedUnusable++;
        dropped(reason);
    }

    void droppedRewardFailure(String reason) {
        droppedRewardFailure++;
        dropped(reason);
    }

    void stepDone(int groupsTrained, int groupsSkipped) {
        trained += groupsTrained;
        skippedNoSignal += groupsSkipped;
    }

    private void dropped(String reason) {
        lastDropReason = reason;
        LOG.warn("group dropped: {}", reason);
    }

    public LearnerAccounts snapshot() {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, lastDropReason);
    }
}
