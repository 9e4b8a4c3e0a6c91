package dev.toolcoach.toolnode;

import dev.toolcoach.openai.http.BearerToken;
import dev.toolcoach.openai.http.ConnectionLimits;
import dev.toolcoach.openai.http.LoopbackOrigin;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.tools.mcp.CappedSessions;
import dev.toolcoach.tools.mcp.McpToolServer;
import dev.toolcoach.tools.mcp.McpWireJson;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node's suites as an MCP server over streamable HTTP (the SDK's servlet in an embedded Jetty) at
 * {@code /mcp}. Every request needs {@code Authorization: Bearer <token>} when a token is set; without
 * one the endpoint binds only loopback and takes requests only from this machine's own clients ({@link LoopbackOrigin}).
 * Connections are kept as every ToolCoach server keeps them ({@link JettyConnectionGuard}, {@code toolcoach.http}).
 */
final class McpHttpEndpoint implements AutoCloseable {

    static final String PATH = "/mcp";
    /** Largest request body taken, as the OpenAI server's. */
    private static final int MAX_REQUEST_BYTES = 4 * 1024 * 1024;

    private final Server jetty;
    private final McpSyncServer server;
    private final URI uri;

    private McpHttpEndpoint(Server jetty, McpSyncServer server, URI uri) {
        this.jetty = jetty;
        this.server = server;
        this.uri = uri;
    }

    /**
     * Refuses, before anything starts, to expose tools without credentials beyond loopback.
     *
     * @throws IllegalArgumentException naming the problem
     */
    static void checkExposure(String host, Optional<String> token) {
        if (token.isPresent()) {
            if (token.get().isBlank()) throw new IllegalArgumentException("the MCP token is blank");
            return;
        }
        if (!isLoopback(host)) {
            throw new IllegalArgumentException("without a token (--token or TOOLCOACH_MCP_TOKEN) the MCP endpoint binds only "
                    + "loopback, not " + host);
        }
    }

    /**
     * How many sessions are kept: at most {@code max} (the oldest without an open stream ends for a new one; when every
     * one has a stream open, a new one is answered 503, {@link SessionCapFilter}), and one
     * with no request and no open stream through a whole {@code sweepInterval} ends (so after one to two of them). Every
     * {@code keepAlive} each session is pinged over its open event stream: a stream whose client went away fails on the
     * write and ends, so it no longer counts as a request in progress (a stream nothing is written to would never learn
     * its client left, and would hold its connection, and its address's share of them, for good).
     */
    record Sessions(int max, Duration sweepInterval, Duration keepAlive) {
        static final Sessions DEFAULT = new Sessions(256, Duration.ofMinutes(5), Duration.ofSeconds(30));
    }

    /** Serves {@code executors} at {@code host:port} (0: any free port), each connection under {@code limits}. */
    static McpHttpEndpoint start(String host, int port, Optional<String> token, List<ToolExecutor> executors, String version,
                                 ConnectionLimits limits, Sessions sessions) throws Exception {
        checkExposure(host, token);
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        // the port is known only once bound; the Host check reads it when a request comes
        int[] boundPort = new int[1];
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(McpWireJson.mapper())
                .mcpEndpoint(PATH)
                .maxRequestSize(MAX_REQUEST_BYTES)
                .securityValidator(headers -> check(headers, token, boundPort[0]))
                .sessionSweepInterval(sessions.sweepInterval())
                .keepAliveInterval(sessions.keepAlive())
                .build();
        CappedSessions capped = new CappedSessions(transport, sessions.max());
        McpSyncServer server = McpToolServer.serve(capped, executors, version);
        ServletContextHandler context = new ServletContextHandler();
        context.setErrorHandler(new JsonErrorHandler());
        context.addFilter(new FilterHolder(new SessionCapFilter(capped)), "/*", EnumSet.of(DispatcherType.REQUEST));
        ServletHolder holder = new ServletHolder(transport);
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/*");
        JettyConnectionGuard guard = new JettyConnectionGuard(context, limits, jetty.getScheduler());
        connector.addEventListener(guard);
        jetty.setHandler(guard);
        try {
            jetty.start();
        } catch (Exception e) {
            server.close();
            jetty.stop();
            throw e;
        }
        boundPort[0] = connector.getLocalPort();
        String shownHost = host.contains(":") ? "[" + host + "]" : host;
        return new McpHttpEndpoint(jetty, server, URI.create("http://" + shownHost + ":" + boundPort[0] + PATH));
    }

    URI uri() {
        return uri;
    }

    void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() throws Exception {
        server.close();
        jetty.stop();
    }

    private static void check(Map<String, List<String>> headers, Optional<String> token, int port) throws ServerTransportSecurityException {
        if (token.isPresent()) {
            boolean ok = BearerToken.matches(header(headers, "authorization").orElse(null), token.get());
            if (!ok) throw new ServerTransportSecurityException(401, "missing or wrong bearer token");
            return;
        }
        // loopback without a token: only this machine's own clients, no page a browser shows (CSRF, DNS rebinding)
        Optional<String> refusal = LoopbackOrigin.refusal(header(headers, "host"), header(headers, "origin"), port);
        if (refusal.isPresent()) throw new ServerTransportSecurityException(403, refusal.get());
    }

    private static Optional<String> header(Map<String, List<String>> headers, String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
                .map(e -> e.getValue().get(0)).findFirst();
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
