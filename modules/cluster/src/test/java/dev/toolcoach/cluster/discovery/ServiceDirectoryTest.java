package dev.toolcoach.cluster.discovery;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class ServiceDirectoryTest {

    private static final ActorTestKit testKit = ActorTestKit.create();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    @Test
    void listingsReplaceWhatWasKnownPerKey() {
        ActorRef<AthleteProtocol.Command> a1 = testKit.<AthleteProtocol.Command>createTestProbe().ref();
        ActorRef<AthleteProtocol.Command> a2 = testKit.<AthleteProtocol.Command>createTestProbe().ref();
        ActorRef<ToolServerProtocol.Command> finance = testKit.<ToolServerProtocol.Command>createTestProbe().ref();
        ServiceDirectory directory = ServiceDirectory.empty()
                .withAthletes(Set.of(a1, a2))
                .withToolSuite("finance", Set.of(finance))
                .withToolSuite("arithmetic", Set.of());
        assertEquals("athletes=2 tools{finance=1}", directory.summary());
        ServiceDirectory later = directory.withAthletes(Set.of(a2)).withToolSuite("finance", Set.of());
        assertEquals(Set.of(a2), later.athletes());
        assertEquals(0, later.toolServerCount("finance"));
        assertFalse(later.toolServers().containsKey("finance"), "a suite without servers is dropped");
        assertEquals(1, directory.toolServerCount("finance"), "directories are immutable");
    }
}
