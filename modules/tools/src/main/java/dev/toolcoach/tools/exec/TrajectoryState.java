package dev.toolcoach.tools.exec;

import dev.toolcoach.tools.spi.SessionScope;
import dev.toolcoach.tools.spi.ToolPlugin;
import dev.toolcoach.tools.spi.ToolSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One trajectory's plugin sessions and usage: how many of its calls are running and when it was
 * last used. Released once finished with no call running, or when idle too long.
 */
final class TrajectoryState implements SessionScope {

    private static final Logger LOG = LoggerFactory.getLogger(TrajectoryState.class);

    private final String trajectoryId;
    private final Map<ToolPlugin, ToolSession> sessions = new IdentityHashMap<>();
    private int callsInFlight;
    private long lastUsedNanos;
    private boolean finishing;
    private boolean released;

    TrajectoryState(String trajectoryId, long nowNanos) {
        this.trajectoryId = trajectoryId;
        this.lastUsedNanos = nowNanos;
    }

    @Override
    public synchronized ToolSession sessionFor(ToolPlugin plugin) throws Exception {
        if (released) throw new IllegalStateException("trajectory " + trajectoryId + " has already been released");
        ToolSession session = sessions.get(plugin);
        if (session == null) {
            session = plugin.open(trajectoryId);
            sessions.put(plugin, session);
        }
        return session;
    }

    synchronized void callStarted(long nowNanos) {
        callsInFlight++;
        lastUsedNanos = nowNanos;
    }

    synchronized void callEnded(long nowNanos) {
        callsInFlight--;
        lastUsedNanos = nowNanos;
        if (finishing && callsInFlight == 0) release();
    }

    synchronized boolean idleFor(long idleNanos, long nowNanos) {
        return callsInFlight == 0 && nowNanos - lastUsedNanos >= idleNanos;
    }

    /** Releases now, or after the last running call when some are still running. */
    synchronized void finish() {
        finishing = true;
        if (callsInFlight == 0) release();
    }

    synchronized boolean isReleased() {
        return released;
    }

    synchronized void release() {
        if (released) return;
        released = true;
        List<ToolSession> open = new ArrayList<>(sessions.values());
        sessions.clear();
        for (ToolSession session : open) {
            try {
                session.close();
            } catch (RuntimeException e) {
                // one failing close must not keep the other sessions of the trajectory open
                LOG.warn("closing a tool session of trajectory {} failed: {}", trajectoryId, e.toString(), e);
            }
        }
    }
}
