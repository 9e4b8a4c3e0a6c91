package dev.toolcoach.deploy;

import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.node.NodeSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** deploy/conf/*.conf load through the real node config loader, as cluster.sh passes them. */
class NodeConfigsTest {

    private static NodeSettings load(NodeProgram program, String file, List<String> seeds) {
        Path conf = DeployFiles.deployDir().resolve("conf").resolve(file);
        NodeOverrides cli = new NodeOverrides(Optional.of(conf), Optional.empty(), Optional.empty(), Optional.of(0),
                Optional.of(seeds), Optional.empty(), Optional.of(0), Optional.empty(), Optional.empty());
        return NodeSettings.fromConfig(NodeConfigLoader.load(program, cli, Map.of()));
    }

    @Test
    void eachNodeConfigGivesItsRoles() {
        List<String> seed = List.of("akka://ToolCoach@127.0.0.1:25520");
        NodeSettings coach = load(NodeProgram.COACH, "coach.conf", List.of());
        NodeSettings athlete = load(NodeProgram.ATHLETE, "athlete.conf", seed);
        NodeSettings tool = load(NodeProgram.TOOL, "tool.conf", seed);
        assertEquals(Set.of(NodeRole.COACH, NodeRole.LEARNER), coach.roles());
        assertEquals(Set.of(NodeRole.ATHLETE), athlete.roles());
        assertEquals(Set.of(NodeRole.TOOL), tool.roles());
        assertEquals(coach.toolSuites(), tool.toolSuites(), "the coach watches exactly the suites tool nodes host");
        assertEquals("127.0.0.1", athlete.host());
    }
}
