package dev.toolcoach.tools.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.agent.ToolSpec;
import dev.toolcoach.tools.exec.ToolExecutor;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;

import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The reverse direction: a node's suites offered as one MCP server (official SDK), so other agents can use
 * them. Every call goes through its suite's {@link ToolExecutor} (argument checks, deadline, output cap,
 * metrics); each MCP session is one trajectory of the executors, so stateful tools keep a session's state.
 * Failures are results with {@code isError}, as MCP asks, never protocol errors.
 */
public final class McpToolServer {

    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String SERVER_NAME = "toolcoach-tool-node";

    private McpToolServer() {
    }

    /** Serves the executors' tools over a single-session transport (stdio). */
    public static McpSyncServer serve(McpServerTransportProvider transport, List<ToolExecutor> executors, String version) {
        return McpServer.sync(new ResendingProvider(transport)).jsonMapper(McpWireJson.mapper()).serverInfo(SERVER_NAME, version)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools(executors)).build();
    }

    /**
     * Serves the executors' tools over this process's stdin and stdout until the client closes stdin (the session is
     * over) or the JVM is asked to stop; blocks until then. Whatever else would print to stdout (a logger set up
     * later, a library) goes to stderr: the client stops reading at a line that is not JSON-RPC.
     */
    public static void serveStdio(List<ToolExecutor> executors, String version) throws InterruptedException {
        PrintStream protocol = System.out;
        System.setOut(System.err);
        CountDownLatch ended = new CountDownLatch(1);
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int read = super.read(buffer, offset, length);
                if (read < 0) ended.countDown();
                return read;
            }
        };
        McpSyncServer server = serve(new StdioServerTransportProvider(McpWireJson.mapper(), in, protocol), executors, version);
        Runtime.getRuntime().addShutdownHook(new Thread(ended::countDown));
        ended.await();
        server.close();
    }

    /**
     * Serves the executors' tools over streamable HTTP, keeping the sessions {@code transport} caps. Its transport should
     * write with {@link McpWireJson#mapper()}.
     */
    public static McpSyncServer serve(CappedSessions transport, List<ToolExecutor> executors, String version) {
        return McpServer.sync(transport).jsonMapper(McpWireJson.mapper()).serverInfo(SERVER_NAME, version)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools(executors)).build();
    }

    /**
     * Calls run concurrently, so their answers often meet in the stdio transport, which refuses all but one
     * ({@link StdioRefusal}); a refused answer would be lost and its client would wait for it until its deadline,
     * so it is offered again after a short pause.
     */
    private static final class ResendingProvider extends ForwardingProvider<McpServerTransportProvider>
            implements McpServerTransportProvider {
        ResendingProvider(McpServerTransportProvider provider) {
            super(provider);
        }

        @Override
        public void setSessionFactory(McpServerSession.Factory factory) {
            provider.setSessionFactory(transport -> factory.create(new ResendingTransport(transport)));
        }
    }

    private record ResendingTransport(McpServerTransport transport) implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.defer(() -> transport.sendMessage(message))
                    .retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(1)).maxBackoff(Duration.ofMillis(20))
                            .filter(StdioRefusal::isRefusal))
                    .timeout(StdioRefusal.RESEND_FOR);
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return transport.unmarshalFrom(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return transport.closeGracefully();
        }

        @Override
        public void close() {
            transport.close();
        }

        @Override
        public List<String> protocolVersions() {
            return transport.protocolVersions();
        }
    }

    /** One MCP tool per tool of every executor's suite; two suites with a tool of the same name are refused. */
    static List<McpServerFeatures.SyncToolSpecification> tools(List<ToolExecutor> executors) {
        Map<String, String> suiteOf = new HashMap<>();
        List<McpServerFeatures.SyncToolSpecification> tools = new ArrayList<>();
        for (ToolExecutor executor : executors) {
            String suite = executor.suite().name();
            for (ToolSpec spec : executor.specs()) {
                String previous = suiteOf.putIfAbsent(spec.name(), suite);
                if (previous != null) {
                    throw new IllegalArgumentException("suites '" + previous + "' and '" + suite + "' both have a tool named '"
                            + spec.name() + "'; one MCP server cannot offer both");
                }
                tools.add(McpServerFeatures.SyncToolSpecification.builder()
                        .tool(toMcp(spec))
                        .callHandler((exchange, request) -> call(executor, exchange, request))
                        .build());
            }
        }
        return tools;
    }

    private static McpSchema.Tool toMcp(ToolSpec spec) {
        try {
            return McpSchema.Tool.builder().name(spec.name()).description(spec.description())
                    .inputSchema(McpJsonDefaults.getMapper(), JSON.writeValueAsString(spec.parameters()))
                    .build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("schema of tool '" + spec.name() + "' cannot be written: " + e.getOriginalMessage(), e);
        }
    }

    private static McpSchema.CallToolResult call(ToolExecutor executor, McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
        McpWireJson.checkArguments(request);
        String trajectory = "mcp-" + exchange.sessionId();
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        ToolResult result = executor.call(trajectory, new ToolCall(request.name(), arguments)).join();
        McpSchema.CallToolResult.Builder answer = McpSchema.CallToolResult.builder().addTextContent(result.text())
                .isError(!result.ok());
        // MCP's structured content is an object; other structured values are already the text
        if (result.ok() && result.structured() instanceof Map<?, ?> structured) answer.structuredContent(structured);
        return answer.build();
    }
}
