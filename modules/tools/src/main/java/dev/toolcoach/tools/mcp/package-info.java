/**
 * MCP both ways, over the official SDK: MCP servers' tools as suites ({@code McpSuites} over {@code McpConnection}) and
 * suites as an MCP server ({@code McpToolServer}; {@code McpWireJson}: JSON-RPC errors without Java internals;
 * {@code CappedSessions}).
 *
 * <p><b>MCP servers as suites</b> {@code toolcoach.tools.mcp.servers.<name>}:
 * {@code command}/{@code args}/{@code env}/{@code working-dir} for a process over stdio, or {@code url}/{@code headers}
 * for streamable HTTP; {@code sessions}, {@code tools}, {@code request-timeout}. {@code McpSuites.open} lists the
 * server's tools once at start (their input schemas become the {@code ToolSpec}s as they are) and each call goes to the
 * server through the suite's executor. A {@code shared} server is one {@code McpConnection} for every trajectory; a
 * {@code per-trajectory} one is a {@code ToolPlugin} whose sessions each start their own (a process with a private
 * folder, {@code {session_dir}}), closed when the trajectory is released or idle. {@code McpConnection} starts the
 * process with only PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, TMPDIR of the node's environment plus the configured
 * {@code env}; a process that exits is noticed at once (its exit is awaited on a thread), a transport failure marks the
 * server down, and it is started again on the first call after {@code restart-backoff} (doubling from min to max; reset
 * by a call that succeeds); until then its calls fail at once with an error result naming the server. A JSON-RPC error
 * answer and a result the SDK cannot read (or one without content) are error results for that call only; a call cut at
 * the executor's deadline leaves the server up, but a ping follows and a session that does not answer it (the SDK stops
 * reading a stdio server after a line that is not JSON-RPC) is restarted. Closing waits for the processes, so none
 * outlives its node. Calls run concurrently over one session; the SDK's stdio transports (1.1.x) refuse a message while
 * another thread emits one, so a refused request is sent again for up to 2 s ({@code StdioRefusal}), and
 * {@code McpToolServer} wraps its stdio transport to do the same for answers (before, concurrent answers were lost and
 * their calls waited out their deadlines).
 *
 * <p><b>Suites as an MCP server</b> {@code McpToolServer} serves suites ({@code tool-node mcp}, over stdio or
 * streamable HTTP). Errors are JSON-RPC error objects, never a Java exception with its stack trace
 * ({@code McpWireJson}), and a {@code tools/call} whose {@code arguments} is not an object gets -32602 with its id (the
 * SDK's own conversion failure went unanswered). Sessions ({@code CappedSessions}): at most 256, the oldest without an
 * open stream ended for a new one, and one idle through a whole 5-minute sweep ends. The HTTP endpoint and its guards
 * are {@code dev.toolcoach.toolnode}'s.
 *
 * <p><b>JSON</b> The SDK (1.1.5) binds JSON with Jackson 3 ({@code mcp-json-jackson3}, package {@code tools.jackson}),
 * which lives beside the project's Jackson 2.13; only {@code jackson-annotations} moves to 2.20 (Jackson 3 needs it;
 * annotations only add). Its records cross to the agent's Jackson 2 {@code ToolSpec}s as JSON text. The fat jars keep
 * {@code META-INF/services} (the SDK finds its JSON mapper there).
 */
package dev.toolcoach.tools.mcp;
