package dev.toolcoach.cluster.toolserver;

import dev.toolcoach.cluster.node.NodeStartException;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.annotated.ToolClassSuite;
import dev.toolcoach.tools.email.MailSourceException;
import dev.toolcoach.tools.mcp.McpServerSpec;
import dev.toolcoach.tools.mcp.McpSuites;
import dev.toolcoach.tools.spi.ToolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Opens the suites a tool node hosts before its actor system starts, so that a mailbox that cannot be
 * indexed stops the node with one line instead of leaving it up without the suite.
 */
public final class HostedSuites {

    private static final Logger LOG = LoggerFactory.getLogger(HostedSuites.class);

    private HostedSuites() {
    }

    /** Opens every configured suite (built-in, then the tool classes'), then starts or reaches every MCP server and lists its tools; on failure closes those already open and throws {@link NodeStartException}. */
    public static List<BuiltinSuites.Hosted> open(ToolHostSettings settings) {
        List<BuiltinSuites.Hosted> opened = new ArrayList<>();
        for (String name : settings.suites()) {
            try {
                BuiltinSuites.Hosted hosted = BuiltinSuites.open(name, settings.options());
                opened.add(hosted);
                // a skill definition that cannot be used stops the node here, with its one line, not a failed actor later
                BuiltinSuites.withSkills(hosted.suite(), settings.options());
            } catch (MailSourceException | RuntimeException e) {
                closeAll(opened);
                throw new NodeStartException("cannot open tool suite '" + name + "': " + e.getMessage());
            }
        }
        for (ToolClassSuite toolClass : settings.classes()) {
            try {
                BuiltinSuites.Hosted hosted = new BuiltinSuites.Hosted(toolClass.open(), () -> { });
                opened.add(hosted);
                BuiltinSuites.withSkills(hosted.suite(), settings.options());
                LOG.info("tool class {} hosted as suite '{}': {}", toolClass.className(), toolClass.suite(), hosted.suite().toolNames());
            } catch (RuntimeException e) {
                closeAll(opened);
                throw new NodeStartException("cannot open tool suite '" + toolClass.suite() + "': " + e.getMessage());
            }
        }
        // servers start concurrently (each is a process start or a connection, then a listing), so a node with
        // several is up in the time of its slowest
        // (a thread each: they mostly wait, and the common pool may have a single thread)
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, settings.mcpServers().size()));
        List<CompletableFuture<BuiltinSuites.Hosted>> starting = settings.mcpServers().stream()
                .map(server -> CompletableFuture.supplyAsync(() -> {
                    try {
                        return McpSuites.open(server);
                    } catch (ToolException e) {
                        throw new CompletionException(e);
                    }
                }, threads)).toList();
        threads.shutdown();
        String failure = null;
        for (int i = 0; i < starting.size(); i++) {
            McpServerSpec server = settings.mcpServers().get(i);
            try {
                BuiltinSuites.Hosted hosted = starting.get(i).join();
                opened.add(hosted);
                LOG.info("MCP server '{}' hosted: {}", server.name(), hosted.suite().toolNames());
            } catch (CompletionException e) {
                if (failure == null) failure = "cannot host MCP server '" + server.name() + "': " + e.getCause().getMessage();
            }
        }
        if (failure != null) {
            closeAll(opened);
            throw new NodeStartException(failure);
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
