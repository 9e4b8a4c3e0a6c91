package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.cluster.node.NodeStartException;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.mcp.McpServerSpec;
import dev.toolcoach.tools.mcp.McpSuites;
import dev.toolcoach.tools.spi.ToolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Opens the suites a tool node hosts before its actor system starts, so that a mailbox that cannot be
 * indexed stops the node with one line instead of leaving it up without the suite.
 */
public final class HostedSuites {

    private static final Logger LOG = LoggerFactory.getLogger(HostedSuites.class);

    private HostedSuites() {
    }

    /** Opens every configured suite, then starts or reaches every MCP server and lists its tools; on failure closes those already open and throws {@link NodeStartException}. */
    public static List<BuiltinSuites.Hosted> open(ToolHostSettings settings) {
        List<BuiltinSuites.Hosted> opened = new ArrayList<>();
        for (String name : settings.suites()) {
            try {
                opened.add(BuiltinSuites.open(name, settings.options()));
            } catch (MailSourceException | RuntimeException e) {
                closeAll(opened);
                throw new NodeStartException("cannot open tool suite '" + name + "': " + e.getMessage());
            }
        }
        for (McpServerSpec server : settings.mcpServers()) {
            try {
                opened.add(McpSuites.open(server));
                LOG.info("MCP server '{}' hosted: {}", server.name(), opened.get(opened.size() - 1).suite().toolNames());
            } catch (ToolException | RuntimeException e) {
                closeAll(opened);
                throw new NodeStartException("cannot host MCP server '" + server.name() + "': " + e.getMessage());
            }
        }
        return List.copyOf(opened);
    }

    /** Closes each suite's resources; a failure is logged and does not stop the others from closing. */
    public static void closeAll(List<BuiltinSuites.Hosted> hosted) {
        for (BuiltinSuites.Hosted suite : hosted) {
            close(suite);
        }
    }

    static void close(BuiltinSuites.Hosted suite) {
        try {
            suite.close();
        } catch (Exception e) {
            LOG.warn("tool suite '{}' did not close cleanly: {}", suite.suite().name(), e.toString());
        }
    }
}
