package dev.toolcoach.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.spi.Tool;
import dev.toolcoach.tools.spi.ToolException;
import dev.toolcoach.tools.spi.ToolInvocation;
import dev.toolcoach.tools.spi.ToolOutput;
import dev.toolcoach.tools.spi.ToolPlugin;
import dev.toolcoach.tools.spi.ToolSession;
import dev.toolcoach.tools.spi.ToolSuite;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An MCP server's tools as a {@link ToolSuite}: the server's listing becomes the suite's specs (its input
 * schemas as they are), and each call goes to the server, through whichever executor hosts the suite.
 * A shared server is one {@link McpConnection}; a per-trajectory one is a {@link ToolPlugin} whose
 * sessions each hold their own connection (for stdio: their own process), closed with the trajectory.
 */
public final class McpSuites {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger(McpSuites.class);

    private McpSuites() {
    }

    /**
     * Reaches the server, lists its tools and builds the suite. Fails naming the server when it cannot be
     * started or reached, lists no tools, or lacks a tool the spec names.
     */
    public static BuiltinSuites.Hosted open(McpServerSpec spec) throws ToolException {
        McpConnection shared = new McpConnection(spec);
        try {
            List<ToolSpec> specs = specs(spec, shared.listTools());
            ToolSuite.Builder suite = ToolSuite.builder(spec.name());
            if (spec.perTrajectory()) {
                shared.close(); // it only listed the tools: each trajectory starts its own
                suite.add(new PerTrajectory(spec, specs));
                return new BuiltinSuites.Hosted(suite.build(), () -> { });
            }
            specs.forEach(toolSpec -> suite.add(new SharedTool(spec.name(), toolSpec, shared)));
            return new BuiltinSuites.Hosted(suite.build(), shared);
        } catch (ToolException | RuntimeException e) {
            shared.close();
            throw e;
        }
    }

    static List<ToolSpec> specs(McpServerSpec spec, List<McpSchema.Tool> listed) {
        Map<String, McpSchema.Tool> byName = new LinkedHashMap<>();
        listed.forEach(tool -> byName.put(tool.name(), tool));
        Set<String> offered = spec.tools().isEmpty() ? byName.keySet() : new LinkedHashSet<>(spec.tools());
        if (offered.isEmpty()) {
            throw new IllegalArgumentException("MCP server '" + spec.name() + "' lists no tools");
        }
        return offered.stream().map(name -> {
            McpSchema.Tool tool = byName.get(name);
            if (tool == null) {
                throw new IllegalArgumentException("MCP server '" + spec.name() + "' has no tool '" + name
                        + "' (it lists " + byName.keySet() + ")");
            }
            return toSpec(spec.name(), tool);
        }).toList();
    }

    private static ToolSpec toSpec(String server, McpSchema.Tool tool) {
        String description = tool.description() != null ? tool.description() : tool.title();
        JsonNode schema;
        try {
            // the SDK's records are Jackson 3; the agent's specs are Jackson 2: JSON text is their common ground
            schema = JSON.readTree(McpJsonDefaults.getMapper().writeValueAsString(tool.inputSchema()));
        } catch (IOException e) {
            throw new IllegalArgumentException("input schema of tool '" + tool.name() + "' of MCP server '" + server
                    + "' cannot be read: " + e.getMessage(), e);
        }
        try {
            return new ToolSpec(tool.name(), description, schema);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("MCP server '" + server + "': " + e.getMessage(), e);
        }
    }

    /** One tool of a server every trajectory shares. */
    private record SharedTool(String server, ToolSpec spec, McpConnection connection) implements Tool {
        @Override
        public ToolOutput call(ToolInvocation invocation) throws ToolException {
            return McpResults.toOutput(server, spec.name(), connection.call(spec.name(), invocation.arguments()));
        }
    }

    /** A server that keeps state: each trajectory gets its own session, opened on its first call. */
    private record PerTrajectory(McpServerSpec spec, List<ToolSpec> tools) implements ToolPlugin {
        @Override
        public ToolSession open(String trajectoryId) throws IOException {
            Path folder = Files.createTempDirectory("toolcoach-mcp-" + spec.name() + "-");
            McpConnection connection = new McpConnection(spec.inSessionFolder(folder));
            return new ToolSession() {
                @Override
                public ToolOutput call(String toolName, Map<String, Object> arguments) throws ToolException {
                    return McpResults.toOutput(spec.name(), toolName, connection.call(toolName, arguments));
                }

                @Override
                public void close() {
                    connection.close();
                    deleteQuietly(folder);
                }
            };
        }
    }

    private static void deleteQuietly(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete MCP session folder {}: {}", folder, e.toString());
        }
    }
}
