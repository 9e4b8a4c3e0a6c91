/**
 * The {@code tool-node} program ({@code ToolNodeMain}, role {@code tool}): a thin subclass of the cluster's
 * {@code NodeRunCommand} that hosts tool suites as {@code tools-<suite>} actors
 * ({@code dev.toolcoach.cluster.toolserver}).
 *
 * <p>{@code tool-node mcp} ({@code McpCommand}, no cluster): the same suites as an MCP server over stdio or streamable
 * HTTP ({@code McpHttpEndpoint}: the SDK's servlet in embedded Jetty, {@code /mcp}; {@code tools.mcp.McpToolServer}).
 *
 * <p><b>Streamable HTTP (--http-port P)</b>
 * <ul>
 *   <li>Bound to {@code --http-host}, default 127.0.0.1. {@code Authorization: Bearer T} on every request when a token
 *       is set ({@code --token}, else {@code TOOLCOACH_MCP_TOKEN}; constant-time compare), 401 otherwise; without a
 *       token it refuses to bind anything but loopback (exit 2) and answers only this machine's own clients
 *       ({@code LoopbackOrigin}: loopback {@code Host}, no foreign {@code Origin}; 403 otherwise).</li>
 *   <li>Body 4 MiB (the SDK's {@code maxRequestSize}); every call goes through the suite's executor (argument check,
 *       deadline, output cap).</li>
 *   <li>Connections as every server's ({@code toolcoach.http}): {@code JettyConnectionGuard} puts Jetty's under a
 *       {@code ConnectionGate}, the head timeout and the body timeout, which Jetty lacks: a body not read whole within
 *       it closes its connection.</li>
 *   <li>Sessions: at most 256 ({@code CappedSessions}); when every one has a stream open, {@code SessionCapFilter}
 *       answers a new {@code initialize} 503 with {@code Retry-After} before its body is read, where the SDK would
 *       answer 500. Each session's open event stream is pinged every 30 s ({@code Sessions.keepAlive}, the SDK's
 *       keep-alive), so one whose client vanished fails on the write and ends.</li>
 *   <li>Its 401 and 403 are {@code {status, error}} JSON ({@code JsonErrorHandler}: Jetty's own JSON error page escapes
 *       the message for HTML).</li>
 * </ul>
 */
package dev.toolcoach.toolnode;
