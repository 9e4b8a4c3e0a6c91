package dev.toolcoach.tools.skills;

import dev.toolcoach.tools.spi.SessionScope;
import dev.toolcoach.tools.spi.ToolPlugin;
import dev.toolcoach.tools.spi.ToolSession;

import java.util.IdentityHashMap;
import java.util.Map;

/** Fresh plugin sessions for one validation replay, closed after it, so no replay sees another's state. */
final class IsolatedSessions implements SessionScope, AutoCloseable {

    private final String trajectoryId;
    private final Map<ToolPlugin, ToolSession> sessions = new IdentityHashMap<>();

    IsolatedSessions(String trajectoryId) {
        this.trajectoryId = trajectoryId;
    }

    @Override
    public synchronized ToolSession sessionFor(ToolPlugin plugin) throws Exception {
        ToolSession session = sessions.get(plugin);
        if (session == null) {
            session = plugin.open(trajectoryId);
            sessions.put(plugin, session);
        }
        return session;
    }

    @Override
    public synchronized void close() {
        sessions.values().forEach(ToolSession::close);
        sessions.clear();
    }
}
