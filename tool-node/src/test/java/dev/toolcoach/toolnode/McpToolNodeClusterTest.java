package dev.toolcoach.toolnode;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.agent.AgentConfig;
import dev.toolcoach.agent.AgentLoop;
import dev.toolcoach.agent.RolloutRequest;
import dev.toolcoach.agent.replay.ByteTokenizer;
import dev.toolcoach.agent.replay.ChatMlFormat;
import dev.toolcoach.agent.replay.ReplayGenerator;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.tools.ClusterToolEnvironment;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.testkit.ChildJvm;
import dev.toolcoach.testkit.FreePorts;
import dev.toolcoach.testkit.McpServers;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A tool node in a JVM of its own hosting three npm MCP servers (everything shared, filesystem on a
 * folder, memory per trajectory), and athletes' tools in this JVM reaching them across the cluster:
 * an agent rollout, a server killed mid-rollout, a hanging call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class McpToolNodeClusterTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    private ActorSystem<?> athlete;
    private ChildJvm toolNode;
    private ClusterToolEnvironment tools;

    @BeforeAll
    void start() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Files.writeString(files.resolve("meeting.txt"), "The budget meeting is on Thursday at 10am in room 4B.");
        NodeOverrides overrides = new NodeOverrides(Optional.empty(), Optional.empty(), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(List.of()), Optional.of("127.0.0.1"), Optional.of(FreePorts.pick()), Optional.empty(), Optional.empty());
        Config config = ConfigFactory.parseString("akka.loglevel = WARNING\nakka.coordinated-shutdown.run-by-jvm-shutdown-hook = off")
                .withFallback(NodeConfigLoader.load(NodeProgram.ATHLETE, overrides, Map.of()));
        athlete = ActorSystem.create(Behaviors.empty(), NodeConfigLoader.SYSTEM_NAME, config);
        Cluster.get(athlete).manager().tell(Join.create(Cluster.get(athlete).selfMember().address()));

        Path conf = Files.writeString(dir.resolve("tool.conf"), """
                toolcoach.tools {
                  suites = []
                  executor.call-timeout = 3s
                  mcp {
                    restart-backoff { min = 3s, max = 6s }
                    servers {
                      everything { command = node, args = ["%s", stdio], tools = [echo, get-sum, trigger-long-running-operation] }
                      files { command = node, args = ["%s", "%s"], tools = [read_text_file, list_directory] }
                      memory { command = node, args = ["%s"], env { MEMORY_FILE_PATH = "{session_dir}/memory.jsonl" },
                               sessions = per-trajectory, tools = [create_entities, read_graph] }
                    }
                  }
                }
                """.formatted(McpServers.command("server-everything").get(1), McpServers.command("server-filesystem").get(1),
                files, McpServers.command("server-memory").get(1)));
        toolNode = ChildJvm.start(ToolNodeMain.class, dir.resolve("tool-node.log"), "--config", conf.toString(),
                "--seed", Cluster.get(athlete).selfMember().address().toString(), "--port", "0",
                "--management-port", String.valueOf(FreePorts.pick()));
        tools = ClusterToolEnvironment.connect(athlete, List.of("everything", "files", "memory"),
                        new ClusterToolSettings(Duration.ofSeconds(15), DEADLINE))
                .toCompletableFuture().orTimeout(DEADLINE.toSeconds() + 30, TimeUnit.SECONDS).join();
    }

    @AfterAll
    void stop() throws Exception {
        if (tools != null) tools.close();
        try {
            // first, while the athlete's system is up, so the node leaves the cluster at once
            if (toolNode != null) toolNode.close(); // fails if an MCP server outlives the node
        } finally {
            if (athlete != null) {
                athlete.terminate();
                athlete.getWhenTerminated().toCompletableFuture().join();
            }
        }
    }

    @Test
    void anAgentRolloutUsesThreeMcpServersAcrossTheCluster() {
        assertEquals(List.of("echo", "get-sum", "trigger-long-running-operation", "read_text_file", "list_directory",
                "create_entities", "read_graph"), tools.specs().stream().map(s -> s.name()).toList());
        Path meeting = dir.resolve("files/meeting.txt");
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "<think>read it</think><tool_call>[{\"name\": \"read_text_file\", \"arguments\": {\"path\": \"" + meeting + "\"}}]</tool_call>",
                "<think>remember it</think><tool_call>[{\"name\": \"create_entities\", \"arguments\": {\"entities\": [{\"name\": \"budget meeting\", "
                        + "\"entityType\": \"event\", \"observations\": [\"Thursday 10am, room 4B\"]}]}}, "
                        + "{\"name\": \"get-sum\", \"arguments\": {\"a\": 4, \"b\": 6}}]</tool_call>",
                "<think>check</think><tool_call>[{\"name\": \"read_graph\", \"arguments\": {}}]</tool_call>",
                "<think>done</think><answer>Thursday</answer>"));
        AgentLoop loop = new AgentLoop(tokenizer, new ChatMlFormat(), model, tools,
                AgentConfig.defaults().withLimits(8, 16384).withTools(Duration.ofSeconds(30), 4000));
        Trace trace = loop.run(new RolloutRequest("mcp-rollout-1", "group-1", "query-1", "When is the budget meeting?", Map.of()))
                .toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join();

        assertEquals(Termination.ANSWER, trace.termination(), trace.toString());
        assertEquals(4, trace.turns().size());
        ToolResult read = trace.turns().get(0).actionOutput().get(0);
        assertEquals(ToolResult.Status.OK, read.status(), read.text());
        assertEquals("The budget meeting is on Thursday at 10am in room 4B.", read.text());
        assertEquals(ToolResult.Status.OK, trace.turns().get(1).actionOutput().get(0).status());
        assertTrue(trace.turns().get(1).actionOutput().get(1).text().contains("10"));
        assertTrue(trace.turns().get(2).actionOutput().get(0).text().contains("room 4B"), "the trajectory's own memory");
        assertTrue(loop.systemPrompt().contains("read_text_file"), "the prompt offers the MCP tools");

        // another trajectory has a memory of its own
        ToolResult other = call("mcp-rollout-2", "read_graph", Map.of());
        assertEquals(ToolResult.Status.OK, other.status(), other.text());
        assertFalse(other.text().contains("budget"), other.text());
        tools.release("mcp-rollout-1");
        tools.release("mcp-rollout-2");
    }

    @Test
    void aServerKilledMidRolloutIsAnErrorObservationThenComesBack() throws Exception {
        ByteTokenizer tokenizer = ByteTokenizer.chatMl();
        ReplayGenerator model = ReplayGenerator.chatMl(tokenizer, List.of(
                "<tool_call>[{\"name\": \"echo\", \"arguments\": {\"message\": \"one\"}}]</tool_call>",
                "<tool_call>[{\"name\": \"echo\", \"arguments\": {\"message\": \"two\"}}]</tool_call>",
                "<answer>done</answer>"));
        // the server dies between the rollout's two calls (the model's second turn waits until it is dead); the second
        // call comes well within the 3 s restart backoff
        java.util.concurrent.CountDownLatch killed = new java.util.concurrent.CountDownLatch(1);
        dev.toolcoach.agent.Generator killing = request -> {
            if (model.requests().size() == 1) {
                List<ProcessHandle> servers = toolNode.children("server-everything");
                assertEquals(1, servers.size(), "one shared everything server: " + servers);
                servers.get(0).destroyForcibly();
                servers.get(0).onExit().join();
                killed.countDown();
            }
            return model.generate(request);
        };
        AgentLoop loop = new AgentLoop(tokenizer, new ChatMlFormat(), killing, tools,
                AgentConfig.defaults().withLimits(6, 8192).withTools(Duration.ofSeconds(30), 4000));
        Trace trace = loop.run(new RolloutRequest("crash-1", "group-2", "query-2", "Echo twice.", Map.of()))
                .toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join();
        assertTrue(killed.await(1, TimeUnit.SECONDS));

        assertEquals(Termination.ANSWER, trace.termination(), trace.toString());
        assertEquals(ToolResult.Status.OK, trace.turns().get(0).actionOutput().get(0).status());
        ToolResult second = trace.turns().get(1).actionOutput().get(0);
        assertEquals(ToolResult.Status.ERROR, second.status(), second.text());
        assertTrue(second.text().contains("MCP server 'everything'"), second.text());

        Instant deadline = Instant.now().plus(DEADLINE);
        ToolResult again = call("crash-2", "echo", Map.of("message", "back"));
        while (!again.ok() && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
            again = call("crash-2", "echo", Map.of("message", "back"));
        }
        assertEquals(ToolResult.Status.OK, again.status(), "restarted after the backoff: " + again.text());
        assertTrue(again.text().contains("back"));
    }

    @Test
    void aHangingCallIsATimeoutAtTheNodesDeadline() {
        Instant start = Instant.now();
        ToolResult hung = call("hang-1", "trigger-long-running-operation", Map.of("duration", 60, "steps", 2));
        assertEquals(ToolResult.Status.TIMEOUT, hung.status(), hung.text());
        assertTrue(Duration.between(start, Instant.now()).toSeconds() < 15, "the node's 3 s call timeout, not the 60 s operation");
    }

    private ToolResult call(String trajectory, String tool, Map<String, Object> arguments) {
        return tools.execute(trajectory, List.of(new ToolCall(tool, arguments))).get(0)
                .toCompletableFuture().orTimeout(DEADLINE.toSeconds(), TimeUnit.SECONDS).join();
    }
}
