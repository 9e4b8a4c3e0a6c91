package dev.toolcoach.openai.http;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoopbackOriginTest {

    private static boolean taken(String host, String origin) {
        return LoopbackOrigin.refusal(Optional.ofNullable(host), Optional.ofNullable(origin), 8558).isEmpty();
    }

    @Test
    void thisMachinesOwnClientsAreTaken() {
        for (String host : new String[] {"127.0.0.1:8558", "LOCALHOST:8558", "[::1]:8558", "127.0.0.2:8558", "127.0.0.1", "localhost"}) {
            assertTrue(taken(host, null), host);
        }
        assertTrue(taken("127.0.0.1:8558", "http://localhost:8558"));
        assertTrue(taken("127.0.0.1:8558", "http://127.0.0.1:8558/"));
    }

    @Test
    void aRebindingNameOrAnotherSitesPageIsRefused() {
        String[][] refused = {{"evil.example:8558", null}, {"127.0.0.1.evil.example:8558", null}, {"127.0.0.1:9999", null},
                {null, null}, {"127.0.0.1:8558", "http://evil.example"}, {"127.0.0.1:8558", "null"},
                {"127.0.0.1:8558", "https://127.0.0.1:8558"}, {"127.0.0.1:8558", "http://127.0.0.1:8559"},
                {"127.0.0.1:8558", "http://localhost:8558.evil.example"}, {"127.0.0.1:8558", "http://127.0.0.1"},
                {"evil.example", null}, {"[::1]:80", null}};
        for (String[] c : refused) {
            assertTrue(!taken(c[0], c[1]), c[0] + " " + c[1]);
        }
        assertEquals(Optional.of("the Host header must name this loopback endpoint (127.0.0.1:8558, localhost:8558 or another "
                + "loopback address with this port)"), LoopbackOrigin.refusal(Optional.of("evil.example:8558"), Optional.empty(), 8558));
    }
}
