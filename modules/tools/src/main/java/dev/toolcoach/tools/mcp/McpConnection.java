package dev.toolcoach.tools.mcp;

import dev.toolcoach.tools.spi.ToolException;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.core.JacksonException;

import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * One session with one MCP server, as the official SDK's synchronous client: started (stdio) or reached
 * (HTTP) on first use, and started again after it fails. A server that dies or cannot be reached is
 * retried after a backoff that doubles up to its maximum; until then calls fail at once with a
 * {@link ToolException} saying so, which the executor reports to the model as an error result.
 * Thread-safe: calls run concurrently on one session, as MCP allows.
 */
public final class McpConnection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The variables a started server gets from the node's environment; anything else must be configured. */
    private static final List<String> INHERITED_ENV = List.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TMPDIR");

    private final McpServerSpec spec;
    private final Clock clock;
    /** The server process's last error lines on stderr, quoted when it cannot be started. */
    private final ArrayDeque<String> stderrTail = new ArrayDeque<>();
    private McpSyncClient client;
    private Duration backoff;
    private Instant retryAt = Instant.MIN;
    private String lastFailure = "";
    private boolean closed;

    public McpConnection(McpServerSpec spec) {
        this(spec, Clock.systemUTC());
    }

    McpConnection(McpServerSpec spec, Clock clock) {
        this.spec = spec;
        this.clock = clock;
    }

    /** The server's tools, all pages of its listing. */
    public List<McpSchema.Tool> listTools() throws ToolException {
        McpSyncClient current = client();
        try {
            List<McpSchema.Tool> tools = new ArrayList<>();
            String cursor = null;
            do {
                String pageCursor = cursor;
                McpSchema.ListToolsResult page = resentIfUnsent(() -> pageCursor == null ? current.listTools() : current.listTools(pageCursor));
                tools.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null);
            return tools;
        } catch (McpError e) {
            throw new ToolException(label() + " refused to list its tools: " + e.getMessage());
        } catch (RuntimeException e) {
            throw failed(current, "listing tools", e);
        }
    }

    /**
     * Calls one tool. A JSON-RPC error answer is the tool's failure; a transport failure marks the server
     * down (it is started again after the backoff); an interrupt (the executor's deadline) leaves it up.
     */
    public McpSchema.CallToolResult call(String tool, Map<String, Object> arguments) throws ToolException {
        McpSyncClient current = client();
        try {
            McpSchema.CallToolResult result = resentIfUnsent(() -> current.callTool(new McpSchema.CallToolRequest(tool, arguments)));
            synchronized (this) {
                backoff = null; // the server works again: the next failure starts from the shortest delay
            }
            return result;
        } catch (McpError e) {
            throw new ToolException(label() + " answered an error for '" + tool + "': " + e.getMessage());
        } catch (RuntimeException e) {
            Throwable root = McpError.findRootCause(e);
            if (Thread.currentThread().isInterrupted() || root instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                probeLater(current);
                throw e;
            }
            if (root instanceof JacksonException) { // the server answered, but not an MCP result: it stays up
                throw new ToolException(label() + " returned a malformed result for '" + tool + "': " + describe(e));
            }
            throw failed(current, "calling '" + tool + "'", e);
        }
    }

    /**
     * A request the client's stdio transport refused ({@link StdioRefusal}: as when many calls go out at once, or
     * a call meets the SDK's own refresh of the tool list or a probe's ping) is sent again after a short random pause.
     */
    private static <T> T resentIfUnsent(Supplier<T> request) {
        long deadline = System.nanoTime() + StdioRefusal.RESEND_FOR.toNanos();
        while (true) {
            try {
                return request.get();
            } catch (RuntimeException e) {
                if (!StdioRefusal.isRefusal(e) || System.nanoTime() > deadline) throw e;
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(20_000, 500_000));
                if (Thread.currentThread().isInterrupted()) throw e;
            }
        }
    }

    @Override
    public void close() {
        McpSyncClient current;
        synchronized (this) {
            closed = true;
            current = client;
            client = null;
        }
        if (current != null) closeQuietly(current);
    }

    private synchronized McpSyncClient client() throws ToolException {
        if (closed) throw new ToolException(label() + " is shut down");
        if (client != null) return client;
        Instant now = clock.instant();
        if (now.isBefore(retryAt)) {
            throw new ToolException(label() + " is down (" + lastFailure + "); next start in "
                    + Duration.between(now, retryAt).toMillis() + " ms");
        }
        Started started = null;
        try {
            started = start();
            started.client().initialize();
            client = started.client();
            started.watchExit(this);
            return client;
        } catch (RuntimeException e) {
            if (started != null) closeQuietly(started.client());
            String reason = describe(e) + stderrTail();
            markDown("could not start: " + reason);
            throw new ToolException(label() + " could not be started: " + reason);
        }
    }

    /** A started client and, for a process, its transport (whose exit is watched). */
    private record Started(McpSyncClient client, StdioClientTransport process) {
        void watchExit(McpConnection connection) {
            if (process == null) return;
            Thread watcher = new Thread(() -> {
                process.awaitForExit();
                connection.exited(client);
            }, "mcp-" + connection.spec.name() + "-exit");
            watcher.setDaemon(true);
            watcher.start();
        }
    }

    private Started start() {
        McpClientTransport transport;
        StdioClientTransport process = null;
        if (spec.transport() instanceof McpServerSpec.Stdio stdio) {
            process = stdioTransport(stdio);
            transport = process;
        } else {
            McpServerSpec.Http http = (McpServerSpec.Http) spec.transport();
            URI url = http.url();
            // the SDK resolves its endpoint against the base, so a path must go in as the endpoint, not the base
            String endpoint = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                    + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
            transport = HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
                    .endpoint(endpoint)
                    .customizeRequest(request -> http.headers().forEach(request::header))
                    .connectTimeout(spec.requestTimeout())
                    .build();
        }
        McpSyncClient built = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation("toolcoach", "1"))
                .requestTimeout(spec.requestTimeout())
                .initializationTimeout(spec.requestTimeout())
                .build();
        return new Started(built, process);
    }

    private StdioClientTransport stdioTransport(McpServerSpec.Stdio stdio) {
        checkRunnable(stdio.command()); // the SDK would only notice at the end of its initialization timeout
        ServerParameters parameters = ServerParameters.builder(stdio.command()).args(stdio.args()).env(stdio.env()).build();
        StdioClientTransport transport = new StdioClientTransport(parameters, McpJsonDefaults.getMapper()) {
            @Override
            protected ProcessBuilder getProcessBuilder() {
                ProcessBuilder builder = new ProcessBuilder();
                Map<String, String> environment = builder.environment();
                environment.clear();
                INHERITED_ENV.forEach(key -> {
                    String value = System.getenv(key);
                    if (value != null) environment.put(key, value);
                });
                stdio.workingDir().ifPresent(dir -> builder.directory(dir.toFile()));
                return builder;
            }
        };
        transport.setStdErrorHandler(line -> {
            LOG.debug("{} stderr: {}", label(), line);
            // lines naming an error say most (a stack trace's last lines rarely do)
            if (line.isBlank() || !line.contains("rror")) return;
            synchronized (stderrTail) {
                stderrTail.addLast(line.length() > 200 ? line.substring(0, 200) + "..." : line.strip());
                if (stderrTail.size() > 3) stderrTail.removeFirst();
            }
        });
        return transport;
    }

    /**
     * A call ran past its deadline: a slow tool, or a session that no longer hears the server (the SDK stops
     * reading a stdio server after a line that is not JSON-RPC). A ping tells them apart without holding
     * the caller; a session that does not answer it is restarted.
     */
    private void probeLater(McpSyncClient suspect) {
        Thread probe = new Thread(() -> {
            try {
                resentIfUnsent(suspect::ping);
            } catch (McpError e) {
                // an error answer is an answer: the session works
            } catch (RuntimeException e) {
                failed(suspect, "answering a ping after a call ran past its deadline", e);
            }
        }, "mcp-" + spec.name() + "-probe");
        probe.setDaemon(true);
        probe.start();
    }

    /** A dead process is noticed at once, so calls fail fast instead of waiting out their deadline. */
    private void exited(McpSyncClient exitedClient) {
        synchronized (this) {
            if (closed || client != exitedClient) return; // closed on purpose, or already replaced
        }
        failed(exitedClient, "running", new IllegalStateException("the server process exited"));
    }

    private ToolException failed(McpSyncClient failedClient, String during, RuntimeException e) {
        String reason = describe(e);
        boolean wasCurrent;
        long delay;
        synchronized (this) {
            wasCurrent = client == failedClient;
            if (wasCurrent) {
                client = null;
                markDown(reason);
            }
            // a failure of a client already replaced leaves the backoff alone (a call on the new one may have reset it)
            delay = wasCurrent ? backoff.toMillis() : 0;
        }
        if (wasCurrent) {
            LOG.warn("{} failed while {}: {}; restarting after {} ms", label(), during, reason, delay);
            closeQuietly(failedClient);
        }
        return new ToolException(label() + " failed while " + during + " (" + reason + "); it will be restarted");
    }

    private synchronized void markDown(String reason) {
        backoff = spec.restart().after(backoff);
        retryAt = clock.instant().plus(backoff);
        lastFailure = reason;
    }

    private static void checkRunnable(String command) {
        if (command.contains("/")) {
            if (!Files.isExecutable(Path.of(command))) throw new IllegalArgumentException("command " + command + " is not an executable file");
            return;
        }
        String path = System.getenv("PATH");
        for (String dir : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return;
        }
        throw new IllegalArgumentException("command " + command + " is not on the PATH");
    }

    private String stderrTail() {
        synchronized (stderrTail) {
            return stderrTail.isEmpty() ? "" : "; its stderr said: " + String.join(" | ", stderrTail);
        }
    }

    private String label() {
        return "MCP server '" + spec.name() + "'";
    }

    private static String describe(Throwable e) {
        Throwable root = McpError.findRootCause(e);
        String message = root instanceof IllegalArgumentException ? root.getMessage() // ours, already in the user's terms
                : root.getMessage() == null ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
        return message.length() > 300 ? message.substring(0, 300) + "..." : message;
    }

    /** Closes a session and waits for it: a started process is gone when this returns, so none outlives its node. */
    private static void closeQuietly(McpSyncClient client) {
        try {
            if (!client.closeGracefully()) client.close();
        } catch (RuntimeException e) {
            LOG.debug("MCP client did not close cleanly: {}", e.toString());
        }
    }
}
