package dev.toolcoach.toolnode;

import dev.toolcoach.openai.http.ConnectionGate;
import dev.toolcoach.openai.http.ConnectionLimits;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.EventsHandler;
import org.eclipse.jetty.util.thread.Scheduler;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The MCP endpoint's Jetty under the connection rules of every ToolCoach server ({@code toolcoach.http}): each
 * connection is admitted by a {@link ConnectionGate} (limits in all and per client address, the oldest one without a
 * request in progress closed to make room) and closed when, with no request in progress, it has not sent a whole
 * request head within {@code head-timeout}; Jetty's idle timeout alone counts any byte. A request is in progress from
 * the start of its handling (its head arrived) to its completion, an open event stream included. A request with a body
 * must have sent the whole of it within {@code body-timeout} of its head, else its connection is closed: Jetty has no
 * such deadline, and a body sent a byte at a time would hold the connection for as long as its sender liked.
 */
final class JettyConnectionGuard extends EventsHandler implements Connection.Listener {

    /** One admitted connection: its ticket, and how many of its requests are in progress, guarded by itself. */
    private static final class Admitted {
        final ConnectionGate.Ticket ticket;
        int inProgress;
        /** Bumped whenever a request starts, so a head timer armed earlier knows it is stale. */
        long epoch;
        /** The epoch of the request whose body has not been read whole yet; -1 when none is awaited. */
        long bodyAwaited = -1;

        Admitted(ConnectionGate.Ticket ticket) {
            this.ticket = ticket;
        }
    }

    private final ConnectionGate gate;
    private final ConnectionLimits limits;
    private final Scheduler scheduler;
    private final Map<Connection, Admitted> admitted = new ConcurrentHashMap<>();

    JettyConnectionGuard(Handler handler, ConnectionLimits limits, Scheduler scheduler) {
        super(handler);
        this.gate = new ConnectionGate(limits);
        this.limits = limits;
        this.scheduler = scheduler;
    }

    @Override
    public void onOpened(Connection connection) {
        EndPoint endPoint = connection.getEndPoint();
        if (!(endPoint.getRemoteSocketAddress() instanceof InetSocketAddress remote)) return;
        ConnectionGate.Ticket ticket = gate.admit(remote.getAddress()).orElse(null);
        if (ticket == null) {
            endPoint.close();
            return;
        }
        Admitted state = new Admitted(ticket);
        admitted.put(connection, state);
        ticket.onEvict(endPoint::close);
        armHeadTimer(connection, state);
    }

    @Override
    public void onClosed(Connection connection) {
        Admitted state = admitted.remove(connection);
        if (state != null) state.ticket.release();
    }

    @Override
    protected void onBeforeHandling(Request request) {
        Admitted state = admitted.get(request.getConnectionMetaData().getConnection());
        if (state == null) return;
        long epoch;
        synchronized (state) {
            state.inProgress++;
            epoch = ++state.epoch;
            state.bodyAwaited = hasBody(request) ? epoch : -1; // a request on a reused connection ends the last one's wait
        }
        state.ticket.busy(true);
        if (hasBody(request)) armBodyTimer(request.getConnectionMetaData().getConnection(), state, epoch);
    }

    @Override
    protected void onRequestRead(Request request, Content.Chunk chunk) {
        if (chunk == null || !chunk.isLast()) return;
        Admitted state = admitted.get(request.getConnectionMetaData().getConnection());
        if (state == null) return;
        synchronized (state) {
            state.bodyAwaited = -1;
        }
    }

    /** A body is announced by its length or by chunked transfer coding. */
    private static boolean hasBody(Request request) {
        return request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    private void armBodyTimer(Connection connection, Admitted state, long epoch) {
        scheduler.schedule(() -> {
            boolean late;
            synchronized (state) {
                late = state.bodyAwaited == epoch;
            }
            if (late) connection.getEndPoint().close();
        }, limits.bodyTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    protected void onComplete(Request request, Throwable failure) {
        Connection connection = request.getConnectionMetaData().getConnection();
        Admitted state = admitted.get(connection);
        if (state == null) return;
        synchronized (state) {
            if (--state.inProgress > 0) return;
        }
        state.ticket.busy(false);
        armHeadTimer(connection, state);
    }

    private void armHeadTimer(Connection connection, Admitted state) {
        long epoch;
        synchronized (state) {
            epoch = state.epoch;
        }
        scheduler.schedule(() -> {
            boolean idle;
            synchronized (state) {
                idle = state.epoch == epoch && state.inProgress == 0;
            }
            if (idle) connection.getEndPoint().close();
        }, limits.headTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }
}
