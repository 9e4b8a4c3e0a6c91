package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;

import java.util.List;

/**
 * One of the node programs (coach-node, athlete-node, tool-node): its name for messages and the
 * roles it takes when nothing else says.
 */
public record NodeProgram(String name, List<NodeRole> defaultRoles) {

    public static final NodeProgram COACH = new NodeProgram("coach-node", List.of(NodeRole.COACH, NodeRole.LEARNER));
    public static final NodeProgram ATHLETE = new NodeProgram("athlete-node", List.of(NodeRole.ATHLETE));
    public static final NodeProgram TOOL = new NodeProgram("tool-node", List.of(NodeRole.TOOL));

    public NodeProgram {
        defaultRoles = List.copyOf(defaultRoles);
    }

    /** The lowest configuration layer this program adds: its default roles. */
    Config defaults() {
        return ConfigFactory.empty().withValue("akka.cluster.roles",
                ConfigValueFactory.fromIterable(defaultRoles.stream().map(NodeRole::roleName).toList()));
    }
}
