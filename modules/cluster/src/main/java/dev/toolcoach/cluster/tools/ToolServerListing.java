package dev.toolcoach.cluster.tools;

import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The servers of each suite as the Receptionist last listed them. Immutable; each listing gives a new one.
 * Servers are kept in address order so every athlete node routes a trajectory the same way.
 */
record ToolServerListing(Map<String, List<ActorRef<ToolServerProtocol.Command>>> servers) {

    private static final Comparator<ActorRef<ToolServerProtocol.Command>> BY_ADDRESS = Comparator.comparing(ref -> ref.path().toString());

    ToolServerListing {
        servers = Map.copyOf(servers);
    }

    static ToolServerListing empty() {
        return new ToolServerListing(Map.of());
    }

    ToolServerListing withSuite(String suite, Set<ActorRef<ToolServerProtocol.Command>> listed) {
        Map<String, List<ActorRef<ToolServerProtocol.Command>>> next = new TreeMap<>(servers);
        next.put(suite, listed.stream().sorted(BY_ADDRESS).toList());
        return new ToolServerListing(next);
    }

    List<ActorRef<ToolServerProtocol.Command>> servers(String suite) {
        return servers.getOrDefault(suite, List.of());
    }

    /**
     * The server a trajectory's calls to the suite go to: trajectories are spread over the suite's
     * servers by their id, and one trajectory stays on one server while the listing holds, because
     * stateful tools keep its state there.
     */
    Optional<ActorRef<ToolServerProtocol.Command>> serverFor(String suite, String trajectoryId) {
        List<ActorRef<ToolServerProtocol.Command>> candidates = servers(suite);
        if (candidates.isEmpty()) return Optional.empty();
        return Optional.of(candidates.get(Math.floorMod(trajectoryId.hashCode(), candidates.size())));
    }

    boolean lists(ActorRef<ToolServerProtocol.Command> server) {
        return servers.values().stream().anyMatch(refs -> refs.contains(server));
    }
}
