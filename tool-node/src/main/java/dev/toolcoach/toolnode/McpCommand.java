package dev.toolcoach.toolnode;

import com.typesafe.config.Config;
import dev.toolcoach.cluster.node.NodeConfigException;
import dev.toolcoach.cluster.node.NodeConfigLoader;
import dev.toolcoach.cluster.node.NodeOverrides;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.cluster.node.NodeRunCommand;
import dev.toolcoach.cluster.node.NodeStartException;
import dev.toolcoach.cluster.toolserver.HostedSuites;
import dev.toolcoach.cluster.toolserver.ToolHostSettings;
import dev.toolcoach.openai.http.ConnectionLimits;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.mcp.McpToolServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code tool-node mcp}: the suites a tool node would host ({@code toolcoach.tools}: built-in ones and MCP
 * servers it hosts) offered to other agents as one MCP server, over stdio (the default, for a client that
 * starts it) or streamable HTTP; standalone, without joining a cluster. Calls run through the same
 * executors as on a tool node.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = "Offer the configured tool suites as an MCP server over stdio (default) or streamable HTTP (--http-port).")
final class McpCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON file with toolcoach.tools settings (env TOOLCOACH_CONFIG)")
    Path configFile;

    @Option(names = "--tool-suite", split = ",", paramLabel = "SUITE", description = "built-in suites to offer (default toolcoach.tools.suites)")
    List<String> suites;

    @Option(names = "--http-port", paramLabel = "PORT", description = "serve streamable HTTP on this port (0: any free one) instead of stdio")
    Integer httpPort;

    @Option(names = "--http-host", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "address of the HTTP endpoint, default 127.0.0.1; another needs a token")
    String httpHost;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "bearer token every HTTP request must carry (env TOOLCOACH_MCP_TOKEN)")
    String token;

    @Spec
    CommandSpec spec;

    private final Map<String, String> env;

    McpCommand() {
        this(System.getenv());
    }

    McpCommand(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public Integer call() throws Exception {
        Optional<String> bearer = Optional.ofNullable(token).or(() -> Optional.ofNullable(env.get("TOOLCOACH_MCP_TOKEN")));
        ToolHostSettings settings;
        ConnectionLimits limits;
        try {
            if (httpPort != null) McpHttpEndpoint.checkExposure(httpHost, bearer);
            NodeOverrides overrides = new NodeOverrides(Optional.ofNullable(configFile), Optional.empty(), Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.ofNullable(suites));
            Config config = NodeConfigLoader.load(NodeProgram.TOOL, overrides, env);
            settings = ToolHostSettings.fromConfig(config).checkHostable();
            limits = ConnectionLimits.fromConfig(config);
        } catch (NodeConfigException | IllegalArgumentException e) {
            return fail(NodeRunCommand.CONFIG_ERROR, e.getMessage());
        }
        List<BuiltinSuites.Hosted> hosted;
        try {
            hosted = HostedSuites.open(settings);
        } catch (NodeStartException e) {
            return fail(NodeRunCommand.START_ERROR, e.getMessage());
        }
        List<ToolExecutor> executors = hosted.stream().map(h -> new ToolExecutor(h.suite(), settings.executor(h.suite().name()))).toList();
        try {
            return httpPort == null ? serveStdio(executors) : serveHttp(executors, bearer, limits);
        } finally {
            executors.forEach(ToolExecutor::close);
            HostedSuites.closeAll(hosted);
        }
    }

    private int serveStdio(List<ToolExecutor> executors) throws InterruptedException {
        McpToolServer.serveStdio(executors, version());
        return 0;
    }

    private int serveHttp(List<ToolExecutor> executors, Optional<String> bearer, ConnectionLimits limits) throws Exception {
        McpHttpEndpoint endpoint;
        try {
            endpoint = McpHttpEndpoint.start(httpHost, httpPort, bearer, executors, version(), limits, McpHttpEndpoint.Sessions.DEFAULT);
        } catch (IOException e) {
            return fail(NodeRunCommand.START_ERROR, "cannot bind " + httpHost + ":" + httpPort + ": " + e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                endpoint.close();
            } catch (Exception e) {
                // stopping anyway
            }
            try {
                stopped.await(); // let the main thread close the executors and suites before the JVM ends
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        List<String> tools = executors.stream().flatMap(e -> e.suite().toolNames().stream()).toList();
        spec.commandLine().getOut().println("serving MCP tools " + tools + " at " + endpoint.uri()
                + (bearer.isPresent() ? " (bearer token required)" : " (no token: any local user can call it)"));
        spec.commandLine().getOut().flush();
        try {
            endpoint.join();
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    private int fail(int code, String message) {
        spec.commandLine().getErr().println("tool-node mcp: " + message);
        return code;
    }

    private static String version() {
        String version = McpCommand.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
