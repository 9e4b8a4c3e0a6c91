package dev.toolcoach.cluster.tools;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ToolServerViewTest {

    private static final ActorTestKit testKit = ActorTestKit.create();

    @AfterAll
    static void shutdown() {
        testKit.shutdownTestKit();
    }

    @Test
    void aRequestFailsAtOnceWhenItsServerIsNoLongerListed() {
        ActorRef<ToolServerProtocol.Command> leaving = testKit.<ToolServerProtocol.Command>createTestProbe().ref();
        ActorRef<ToolServerProtocol.Command> staying = testKit.<ToolServerProtocol.Command>createTestProbe().ref();
        ToolServerView view = new ToolServerView();
        view.update(ToolServerListing.empty().withSuite("arithmetic", Set.of(leaving, staying)));
        CompletableFuture<String> toLeaving = view.track(leaving, new CompletableFuture<>());
        CompletableFuture<String> staysAnswered = new CompletableFuture<>();
        CompletableFuture<String> toStaying = view.track(staying, staysAnswered);

        view.update(ToolServerListing.empty().withSuite("arithmetic", Set.of(staying)));
        CompletionException left = assertThrows(CompletionException.class, toLeaving::join);
        assertInstanceOf(ServerLeftException.class, left.getCause());
        staysAnswered.complete("ok");
        assertEquals("ok", toStaying.join(), "requests to listed servers are untouched");
        assertInstanceOf(ServerLeftException.class,
                assertThrows(CompletionException.class, () -> view.track(leaving, new CompletableFuture<>()).join()).getCause(),
                "a request to a server already gone fails without waiting");
    }
}
