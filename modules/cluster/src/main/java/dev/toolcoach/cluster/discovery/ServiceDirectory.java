package dev.toolcoach.cluster.discovery;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who is available right now: the athletes and the servers of each tool suite, as last listed by the
 * Receptionist. Immutable; each listing gives a new directory. Handed out on the coach node only.
 */
public record ServiceDirectory(Set<ActorRef<AthleteProtocol.Command>> athletes,
                               Map<String, Set<ActorRef<ToolServerProtocol.Command>>> toolServers)
        implements NoSerializationVerificationNeeded {

    public ServiceDirectory {
        athletes = Set.copyOf(athletes);
        toolServers = Map.copyOf(toolServers);
    }

    public static ServiceDirectory empty() {
        return new ServiceDirectory(Set.of(), Map.of());
    }

    public ServiceDirectory withAthletes(Set<ActorRef<AthleteProtocol.Command>> listed) {
        return new ServiceDirectory(listed, toolServers);
    }

    public ServiceDirectory withToolSuite(String suite, Set<ActorRef<ToolServerProtocol.Command>> listed) {
        Map<String, Set<ActorRef<ToolServerProtocol.Command>>> servers = new TreeMap<>(toolServers);
        if (listed.isEmpty()) {
            servers.remove(suite);
        } else {
            servers.put(suite, Set.copyOf(listed));
        }
        return new ServiceDirectory(athletes, servers);
    }

    /** Number of servers hosting the suite, 0 when none. */
    public int toolServerCount(String suite) {
        return toolServers.getOrDefault(suite, Set.of()).size();
    }

    /** A one-line account for logs, e.g. {@code athletes=3 tools{arithmetic=1, finance=2}}. */
    public String summary() {
        Map<String, Integer> counts = new TreeMap<>();
        toolServers.forEach((suite, refs) -> counts.put(suite, refs.size()));
        return "athletes=" + athletes.size() + " tools" + counts;
    }
}
