package dev.toolcoach.tools.mcp;

import io.modelcontextprotocol.spec.McpError;

import java.time.Duration;

/**
 * The SDK's stdio transports (client and server, 1.1.x) refuse a message while another thread is emitting one:
 * their outbound sinks are not serialized. A refused message never left, so offering it again is safe; both ends
 * do so for up to {@link #RESEND_FOR}, after which the transport counts as failed.
 */
final class StdioRefusal {

    static final Duration RESEND_FOR = Duration.ofSeconds(2);
    private static final String UNSENT = "Failed to enqueue message";

    private StdioRefusal() {
    }

    static boolean isRefusal(Throwable e) {
        return UNSENT.equals(McpError.findRootCause(e).getMessage());
    }
}
