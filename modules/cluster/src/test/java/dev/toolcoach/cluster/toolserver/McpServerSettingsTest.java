package dev.toolcoach.cluster.toolserver;

import com.typesafe.config.ConfigFactory;
import dev.toolcoach.tools.mcp.McpServerSpec;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** toolcoach.tools.mcp as written in docs/AGENT.md, read into server specs. */
class McpServerSettingsTest {

    @Test
    void stdioAndHttpServersAreReadWithTheirDefaults() {
        ToolHostSettings settings = ToolHostSettings.fromConfig(ConfigFactory.parseString("""
                toolcoach.tools {
                  suites = [arithmetic]
                  mcp {
                    request-timeout = 12s
                    restart-backoff { min = 500ms, max = 8s }
                    servers {
                      memory { command = node, args = [server.js], env { MEMORY_FILE_PATH = "{session_dir}/m.jsonl" },
                               working-dir = "/tmp", sessions = per-trajectory, tools = [read_graph] }
                      search { url = "http://127.0.0.1:3001/mcp", headers { Authorization = "Bearer t" }, request-timeout = 3s }
                    }
                  }
                }
                """).withFallback(ConfigFactory.load()));
        McpServerSpec.Backoff backoff = new McpServerSpec.Backoff(Duration.ofMillis(500), Duration.ofSeconds(8));
        assertEquals(List.of(
                new McpServerSpec("memory", new McpServerSpec.Stdio("node", List.of("server.js"),
                        Map.of("MEMORY_FILE_PATH", "{session_dir}/m.jsonl"), Optional.of(Path.of("/tmp"))), true,
                        List.of("read_graph"), Duration.ofSeconds(12), backoff),
                new McpServerSpec("search", new McpServerSpec.Http(URI.create("http://127.0.0.1:3001/mcp"), Map.of("Authorization", "Bearer t")),
                        false, List.of(), Duration.ofSeconds(3), backoff)), settings.mcpServers());
        assertEquals(List.of("arithmetic", "memory", "search"), settings.checkHostable().hostedSuites());
    }

    @Test
    void noServersByDefault() {
        assertEquals(List.of(), ToolHostSettings.fromConfig(ConfigFactory.load()).mcpServers());
    }
}
