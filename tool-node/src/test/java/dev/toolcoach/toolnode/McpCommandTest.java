package dev.toolcoach.toolnode;

import dev.toolcoach.testkit.ChildJvm;
import dev.toolcoach.testkit.McpServers;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ExecutorSettings;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.mcp.McpServerSpec;
import dev.toolcoach.tools.mcp.McpSuites;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `tool-node mcp`: the node's suites as an MCP server, used through the official SDK's client. */
class McpCommandTest {

    @TempDir
    Path dir;

    @Test
    void overStdioAClientListsAndCallsBuiltInAndHostedMcpTools() throws Exception {
        Path conf = Files.writeString(dir.resolve("tools.conf"), """
                toolcoach.tools {
                  suites = [arithmetic, sql]
                  mcp.servers.everything { command = node, args = ["%s", stdio], tools = [echo] }
                }
                """.formatted(McpServers.command("server-everything").get(1)));
        List<String> command = ChildJvm.command(ToolNodeMain.class, "mcp", "--config", conf.toString());
        ServerParameters parameters = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
        try (McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
                .requestTimeout(Duration.ofSeconds(60)).build()) {
            client.initialize();
            assertEquals("toolcoach-tool-node", client.getServerInfo().name());
            List<String> tools = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertTrue(tools.containsAll(List.of("add", "divide", "run_sql", "list_tables", "echo")), tools.toString());

            McpSchema.CallToolResult sum = client.callTool(new McpSchema.CallToolRequest("add", Map.of("a", 2.5, "b", 4)));
            assertFalse(sum.isError());
            assertEquals("6.5", text(sum));
            McpSchema.CallToolResult echoed = client.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "relayed")));
            assertTrue(text(echoed).contains("relayed"), text(echoed));
            // the executor's checks and the tool's own failures are error results, as MCP asks
            McpSchema.CallToolResult zero = client.callTool(new McpSchema.CallToolRequest("divide", Map.of("a", 1, "b", 0)));
            assertTrue(zero.isError(), text(zero));
            McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("add", Map.of("a", "x")));
            assertTrue(bad.isError());
            assertTrue(text(bad).contains("b"), "names the missing argument: " + text(bad));
            McpSchema.CallToolResult write = client.callTool(new McpSchema.CallToolRequest("run_sql", Map.of("query", "DELETE FROM employees")));
            assertTrue(write.isError(), text(write));
        }
    }

    @Test
    void overHttpEveryRequestNeedsTheToken() throws Exception {
        Path stderr = dir.resolve("stderr.log");
        try (ChildJvm node = ChildJvm.startPiped(ToolNodeMain.class, stderr, "mcp", "--tool-suite", "arithmetic", "--http-port", "0", "--token", "s3cret")) {
            String line = node.firstLine(Duration.ofSeconds(60));
            assertTrue(line != null && line.startsWith("serving MCP tools [") && line.contains("multiply")
                            && line.contains("] at http://127.0.0.1:"),
                    line + "\n" + Files.readString(stderr));
            String url = line.substring(line.indexOf("http://"), line.indexOf(" (bearer"));
            try (McpSyncClient client = http(url, "s3cret")) {
                client.initialize();
                McpSchema.CallToolResult product = client.callTool(new McpSchema.CallToolRequest("multiply", Map.of("a", 6, "b", 7)));
                assertEquals("42", text(product));
            }
            // and a tool node hosting it in turn, as a suite reached over streamable HTTP with the token in its headers
            McpServerSpec remote = new McpServerSpec("remote", new McpServerSpec.Http(URI.create(url), Map.of("Authorization", "Bearer s3cret")),
                    false, List.of("divide"), Duration.ofSeconds(20), new McpServerSpec.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2)));
            try (BuiltinSuites.Hosted hosted = McpSuites.open(remote);
                 ToolExecutor executor = new ToolExecutor(hosted.suite(), ExecutorSettings.defaults())) {
                assertEquals(List.of("divide"), hosted.suite().toolNames());
                assertEquals("0.25", executor.call("t", new ToolCall("divide", Map.of("a", 1, "b", 4))).join().text());
                ToolResult byZero = executor.call("t", new ToolCall("divide", Map.of("a", 1, "b", 0))).join();
                assertEquals(ToolResult.Status.ERROR, byZero.status(), "the remote tool's failure stays an error result");
            }
            for (String wrong : new String[]{null, "guess"}) {
                try (McpSyncClient stranger = http(url, wrong)) {
                    assertThrows(RuntimeException.class, stranger::initialize, "no session without the token");
                }
            }
        }
    }

    @Test
    void withoutATokenTheEndpointStaysOnLoopback() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new McpCommand(Map.of()));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute("--tool-suite", "arithmetic", "--http-port", "0", "--http-host", "0.0.0.0");
        assertEquals(2, code);
        assertEquals("tool-node mcp: without a token (--token or TOOLCOACH_MCP_TOKEN) the MCP endpoint binds only loopback, not 0.0.0.0",
                err.toString().strip());
    }

    private static McpSyncClient http(String url, String token) {
        var transport = HttpClientStreamableHttpTransport.builder(url.substring(0, url.indexOf("/mcp"))).endpoint("/mcp");
        if (token != null) transport.customizeRequest(request -> request.header("Authorization", "Bearer " + token));
        return McpClient.sync(transport.build()).requestTimeout(Duration.ofSeconds(20)).build();
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }
}
