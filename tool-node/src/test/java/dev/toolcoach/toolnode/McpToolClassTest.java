package dev.toolcoach.toolnode;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.toolcoach.testkit.ChildJvm;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** `tool-node mcp` offers a tool class named in toolcoach.tools.classes beside the built-in suites. */
class McpToolClassTest {

    /** A LangChain4j tool class, hosted by name. */
    public static final class Greeter {
        @Tool(name = "greet", value = "Greets someone")
        public String greet(@P("who to greet") String name) {
            return "hello " + name;
        }
    }

    @Test
    void aClientCallsAToolClassTheNodeHostsByName(@TempDir Path dir) throws Exception {
        Path conf = Files.writeString(dir.resolve("tools.conf"), """
                toolcoach.tools {
                  suites = [arithmetic]
                  classes { greetings = "%s" }
                }
                """.formatted(Greeter.class.getName()));
        List<String> command = ChildJvm.command(ToolNodeMain.class, "mcp", "--config", conf.toString());
        ServerParameters parameters = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
        try (McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
                .requestTimeout(Duration.ofSeconds(60)).build()) {
            client.initialize();
            List<String> tools = client.listTools().tools().stream().map(McpSchema.Tool::name).sorted().toList();
            assertEquals(List.of("add", "divide", "greet", "multiply", "subtract"), tools);
            McpSchema.CallToolResult greeting = client.callTool(new McpSchema.CallToolRequest("greet", Map.of("name", "Ada")));
            assertFalse(greeting.isError());
            assertEquals("hello Ada", ((McpSchema.TextContent) greeting.content().get(0)).text());
        }
    }
}
