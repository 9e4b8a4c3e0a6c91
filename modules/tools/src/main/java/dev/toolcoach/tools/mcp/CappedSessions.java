package dev.toolcoach.tools.mcp;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * A streamable HTTP transport whose sessions are capped: the SDK keeps every session a client opens until the client
 * deletes it or its sweeper finds it idle, so clients that open sessions and walk away pile them up. At the cap a new
 * session ends the oldest one without an open stream (a client that left, most likely), as the sweeper ends one: out
 * of the transport's sessions (its client then gets 404 and, as MCP asks, starts a new session) and closed. Only when
 * every session has a stream open is the new one refused: the HTTP server in front asks {@link #full()} before it hands
 * an {@code initialize} to the transport, and answers 503 (the SDK would answer an exception of the session factory
 * with 500, which says the server failed; here it is busy).
 */
public final class CappedSessions extends ForwardingProvider<McpStreamableServerTransportProvider>
        implements McpStreamableServerTransportProvider {

    private final int maxSessions;
    /** The transport's own sessions by id: the SDK has no call that ends one, and this is where it looks them up. */
    private final Map<String, ?> live;
    /** Sessions started here, oldest first. */
    private final Deque<McpStreamableServerSession> started = new ArrayDeque<>();

    public CappedSessions(McpStreamableServerTransportProvider provider, int maxSessions) {
        super(provider);
        if (maxSessions < 1) throw new IllegalArgumentException("maxSessions must be at least 1");
        this.maxSessions = maxSessions;
        this.live = sessionsOf(provider);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> sessionsOf(McpStreamableServerTransportProvider provider) {
        try {
            Field field = provider.getClass().getDeclaredField("sessions");
            field.setAccessible(true);
            return (Map<String, ?>) field.get(provider);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot cap the MCP sessions of " + provider.getClass().getName()
                    + " (this MCP SDK keeps them elsewhere): " + e, e);
        }
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory factory) {
        provider.setSessionFactory(initialize -> {
            McpStreamableServerSession evicted = makeRoom();
            if (evicted != null) evicted.closeGracefully().subscribe(done -> { }, failure -> { });
            McpStreamableServerSession.McpStreamableServerSessionInit init = factory.startSession(initialize);
            synchronized (started) {
                started.add(init.session());
            }
            return init;
        });
    }

    public int maxSessions() {
        return maxSessions;
    }

    /** Whether a new session would be refused now: as many are kept as the cap allows, and every one has a stream open. */
    public boolean full() {
        synchronized (started) {
            forgetEnded();
            return started.size() >= maxSessions && started.stream().allMatch(McpStreamableServerSession::hasOpenStream);
        }
    }

    private void forgetEnded() {
        started.removeIf(session -> live.get(session.getId()) != session); // deleted by its client, or swept
    }

    /** The session ended to make room for a new one (already out of the transport's), or null when there is room. */
    private McpStreamableServerSession makeRoom() {
        synchronized (started) {
            forgetEnded();
            if (started.size() < maxSessions) return null;
            for (Iterator<McpStreamableServerSession> it = started.iterator(); it.hasNext(); ) {
                McpStreamableServerSession session = it.next();
                if (!session.hasOpenStream() && live.remove(session.getId(), session)) {
                    it.remove();
                    return session;
                }
            }
        }
        throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                .message(refusal()).build();
    }

    /** Why a new session is refused, in one line. */
    public String refusal() {
        return "all " + maxSessions + " MCP sessions this server keeps have a stream open; try again later";
    }
}
