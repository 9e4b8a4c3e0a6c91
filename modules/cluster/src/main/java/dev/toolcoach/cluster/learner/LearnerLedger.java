package dev.toolcoach.cluster.learner;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters behind {@link LearnerAccounts}, shared by the collector, the scorer and the training
 * step so one place holds the whole picture. Synchronized: the learner counts arriving traces on its
 * actor thread while a training step scores and trains on another.
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

    synchronized void traceReceived() {
        received++;
    }

    synchronized void duplicate() {
        duplicates++;
    }

    synchronized void groupComplete() {
        groupsComplete++;
    }

    synchronized void droppedStale(String reason) {
        droppedStale++;
        dropped(reason);
    }

    synchronized void droppedUnusable(String reason) {
        droppedUnusable++;
        dropped(reason);
    }

    synchronized void droppedRewardFailure(String reason) {
        droppedRewardFailure++;
        dropped(reason);
    }

    synchronized void stepDone(int groupsTrained, int groupsSkipped) {
        trained += groupsTrained;
        skippedNoSignal += groupsSkipped;
    }

    private void dropped(String reason) {
        lastDropReason = reason;
        LOG.warn("group dropped: {}", reason);
    }

    public synchronized LearnerAccounts snapshot() {
        return new LearnerAccounts(received, duplicates, groupsComplete, droppedStale, droppedUnusable,
                droppedRewardFailure, skippedNoSignal, trained, lastDropReason);
    }
}
