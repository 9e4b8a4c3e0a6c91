package dev.toolcoach.openai.http;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Which connections a server keeps. At a limit (connections in all, or from one client address) a new connection
 * takes the place of the oldest one, from that address or any, that has no request in progress (a client still
 * dribbling its request head, or an idle kept-alive one); only when every such connection is busy is the new one
 * refused. A flood of half-open connections therefore pushes out its own connections, never a request being served,
 * and a client that sends its request at once gets through even from the flooding address.
 */
public final class ConnectionGate {

    private final int maxConnections;
    private final int maxPerAddress;
    private final Map<InetAddress, Deque<Ticket>> byAddress = new HashMap<>();
    /** Every open connection, oldest first. */
    private final Deque<Ticket> all = new ArrayDeque<>();

    public ConnectionGate(ConnectionLimits limits) {
        this.maxConnections = limits.maxConnections();
        this.maxPerAddress = limits.maxConnectionsPerAddress();
    }

    /** A connection the gate keeps, until {@link #release}d; {@link #close} is how the gate closes it. */
    public final class Ticket {
        private final InetAddress address;
        private boolean busy;
        private boolean evicted;
        private Runnable closer;

        private Ticket(InetAddress address) {
            this.address = address;
        }

        /** A request is in progress (its head arrived) until its response has been sent whole: not to be evicted. */
        public void busy(boolean inProgress) {
            synchronized (ConnectionGate.this) {
                busy = inProgress;
            }
        }

        /** How the connection is closed when evicted; run at once if it already was. */
        public void onEvict(Runnable close) {
            boolean now;
            synchronized (ConnectionGate.this) {
                closer = close;
                now = evicted;
            }
            if (now) close.run();
        }

        /** The connection is closed. */
        public void release() {
            synchronized (ConnectionGate.this) {
                remove(this);
            }
        }
    }

    /** A ticket for a new connection from {@code address}, or empty when it is refused (every other one is busy). */
    public Optional<Ticket> admit(InetAddress address) {
        Runnable toClose = null;
        Runnable alsoClose = null;
        Ticket ticket;
        synchronized (this) {
            Deque<Ticket> mine = byAddress.computeIfAbsent(address, a -> new ArrayDeque<>());
            if (mine.size() >= maxPerAddress) {
                Ticket old = oldestWaiting(mine);
                if (old == null) return Optional.empty();
                toClose = evict(old);
            }
            if (all.size() >= maxConnections) {
                Ticket old = oldestWaiting(all);
                if (old == null) {
                    if (mine.isEmpty()) byAddress.remove(address);
                    return finish(toClose, null, Optional.empty());
                }
                alsoClose = evict(old);
            }
            ticket = new Ticket(address);
            byAddress.computeIfAbsent(address, a -> new ArrayDeque<>()).add(ticket);
            all.add(ticket);
        }
        return finish(toClose, alsoClose, Optional.of(ticket));
    }

    /** Connections open now. */
    public synchronized int open() {
        return all.size();
    }

    private static Optional<Ticket> finish(Runnable close, Runnable alsoClose, Optional<Ticket> result) {
        // closing runs outside the lock: a closer hands the close to its connection's stream
        if (close != null) close.run();
        if (alsoClose != null) alsoClose.run();
        return result;
    }

    private static Ticket oldestWaiting(Deque<Ticket> tickets) {
        for (Iterator<Ticket> it = tickets.iterator(); it.hasNext(); ) {
            Ticket t = it.next();
            if (!t.busy) return t;
        }
        return null;
    }

    /** Takes {@code ticket} off the books and returns how to close its connection (null while it has no closer yet). */
    private Runnable evict(Ticket ticket) {
        remove(ticket);
        ticket.evicted = true;
        return ticket.closer;
    }

    private void remove(Ticket ticket) {
        if (!all.remove(ticket)) return;
        Deque<Ticket> mine = byAddress.get(ticket.address);
        mine.remove(ticket);
        if (mine.isEmpty()) byAddress.remove(ticket.address);
    }
}
