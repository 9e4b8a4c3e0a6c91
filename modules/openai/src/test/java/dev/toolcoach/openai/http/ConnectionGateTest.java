package dev.toolcoach.openai.http;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionGateTest {

    private static final InetAddress FLOOD = address(2);
    private static final InetAddress OTHER = address(3);

    private static InetAddress address(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void idleConnectionsMakeRoomOldestFirstBusyOnesNever() {
        ConnectionGate gate = new ConnectionGate(new ConnectionLimits(6, 3, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        AtomicInteger closed = new AtomicInteger();
        List<ConnectionGate.Ticket> flood = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ConnectionGate.Ticket t = gate.admit(FLOOD).orElseThrow();
            int n = i;
            t.onEvict(() -> closed.addAndGet(1 << n));
            flood.add(t);
        }
        flood.get(0).busy(true);
        ConnectionGate.Ticket fourth = gate.admit(FLOOD).orElseThrow();
        assertEquals(2, closed.get(), "the oldest idle one (the second) made room, not the busy first");
        fourth.busy(true);
        flood.get(2).busy(true);
        assertTrue(gate.admit(FLOOD).isEmpty(), "every connection of the address busy: refused");
        for (int i = 0; i < 3; i++) gate.admit(OTHER).orElseThrow();
        assertEquals(6, gate.open());
        ConnectionGate.Ticket late = gate.admit(FLOOD).orElse(null);
        assertEquals(null, late, "in all at the limit, the only idle ones are another address's: still per address first");
        flood.get(0).release();
        assertEquals(5, gate.open());
        gate.admit(FLOOD).orElseThrow();
    }

    @Test
    void aConnectionEvictedBeforeItsStreamStartedIsClosedWhenItDoes() {
        ConnectionGate gate = new ConnectionGate(new ConnectionLimits(2, 1, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        ConnectionGate.Ticket first = gate.admit(FLOOD).orElseThrow();
        gate.admit(FLOOD).orElseThrow();
        AtomicInteger closed = new AtomicInteger();
        first.onEvict(closed::incrementAndGet);
        assertEquals(1, closed.get());
    }
}
