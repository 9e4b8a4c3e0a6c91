package dev.toolcoach.cluster.tools;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolServerListingTest {

    private static final ActorTestKit testKit = ActorTestKit.create();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    private static ActorRef<ToolServerProtocol.Command> server() {
        return testKit.<ToolServerProtocol.Command>createTestProbe().ref();
    }

    @Test
    void trajectoriesSpreadOverTheServersOfASuiteAndEachStaysOnOne() {
        List<ActorRef<ToolServerProtocol.Command>> servers = List.of(server(), server(), server());
        ToolServerListing listing = ToolServerListing.empty().withSuite("arithmetic", Set.copyOf(servers));
        Map<ActorRef<ToolServerProtocol.Command>, Integer> load = new HashMap<>();
        IntStream.range(0, 300).forEach(i -> load.merge(listing.serverFor("arithmetic", "trajectory-" + i).orElseThrow(), 1, Integer::sum));
        assertEquals(Set.copyOf(servers), load.keySet(), "every server gets trajectories");
        load.values().forEach(n -> assertTrue(n >= 60, "roughly even: " + load.values()));
        assertEquals(listing.serverFor("arithmetic", "t-7"), listing.serverFor("arithmetic", "t-7"));
        ToolServerListing relisted = ToolServerListing.empty().withSuite("arithmetic", Set.of(servers.get(2), servers.get(0), servers.get(1)));
        assertEquals(listing.serverFor("arithmetic", "t-7"), relisted.serverFor("arithmetic", "t-7"),
                "routing does not depend on the order the Receptionist lists servers in");
    }

    @Test
    void aSuiteWithoutServersHasNoneToOffer() {
        ActorRef<ToolServerProtocol.Command> gone = server();
        ToolServerListing listing = ToolServerListing.empty().withSuite("finance", Set.of(gone)).withSuite("finance", Set.of());
        assertEquals(Optional.empty(), listing.serverFor("finance", "t-1"));
        assertEquals(Optional.empty(), listing.serverFor("email", "t-1"));
        assertFalse(listing.lists(gone));
    }
}
