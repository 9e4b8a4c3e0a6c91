package dev.toolcoach.cluster.tools;

import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the athlete side knows about tool servers, shared between the {@link ToolServerWatcher} (which
 * updates it from the Receptionist) and the callers of {@link ClusterToolEnvironment} (any thread):
 * the current listing, and the requests waiting for each server, so that a server leaving fails
 * them at once instead of letting them wait for their deadline.
 */
final class ToolServerView {

    private volatile ToolServerListing listing = ToolServerListing.empty();
    private final Map<ActorRef<ToolServerProtocol.Command>, Set<CompletableFuture<?>>> waiting = new HashMap<>();

    ToolServerListing listing() {
        return listing;
    }

    /** Takes a new listing; requests waiting for a server it no longer lists fail with {@link ServerLeftException}. */
    void update(ToolServerListing next) {
        List<Map.Entry<ActorRef<ToolServerProtocol.Command>, Set<CompletableFuture<?>>>> gone;
        synchronized (this) {
            listing = next;
            gone = waiting.entrySet().stream().filter(e -> !next.lists(e.getKey())).map(e -> Map.entry(e.getKey(), e.getValue())).toList();
            gone.forEach(e -> waiting.remove(e.getKey()));
        }
        // completed outside the lock: completion runs the callers' continuations
        gone.forEach(e -> e.getValue().forEach(request -> request.completeExceptionally(new ServerLeftException(e.getKey().path().toString()))));
    }

    /** Follows a request to {@code server} until it completes, or until the server is no longer listed. */
    <T> CompletableFuture<T> track(ActorRef<ToolServerProtocol.Command> server, CompletionStage<T> request) {
        CompletableFuture<T> tracked = new CompletableFuture<>();
        synchronized (this) {
            if (!listing.lists(server)) {
                tracked.completeExceptionally(new ServerLeftException(server.path().toString()));
                return tracked;
            }
            waiting.computeIfAbsent(server, s -> new HashSet<>()).add(tracked);
        }
        request.whenComplete((value, error) -> {
            if (error == null) tracked.complete(value);
            else tracked.completeExceptionally(error);
        });
        tracked.whenComplete((value, error) -> forget(server, tracked));
        return tracked;
    }

    private synchronized void forget(ActorRef<ToolServerProtocol.Command> server, CompletableFuture<?> request) {
        Set<CompletableFuture<?>> requests = waiting.get(server);
        if (requests != null && requests.remove(request) && requests.isEmpty()) {
            waiting.remove(server);
        }
    }
}
