/**
 * Tool servers: a tool node's suites behind actors.
 * <ul>
 *   <li>{@code ToolServerActor}: one per suite ({@code tools-<suite>}), a thin shell over the suite's
 *       {@code ToolExecutor}.</li>
 *   <li>{@code ToolServerMetrics}: exports every server's executor to {@code /metrics}.</li>
 *   <li>{@code ToolHostSettings} ({@code toolcoach.tools}, checked before start; {@code McpServerSettings} reads
 *       {@code toolcoach.tools.mcp}).</li>
 *   <li>{@code AddedLatency}: optional simulated latency per call.</li>
 *   <li>{@code HostedSuites}: opens the configured built-in suites and tool classes, and starts the MCP servers
 *       concurrently, before the actor system starts.</li>
 *   <li>{@code FrameFit}: a turn's results cut to fit one frame.</li>
 * </ul>
 *
 * <p><b>Hosting</b> A tool node hosts the built-in suites named in {@code toolcoach.tools.suites} ({@code arithmetic},
 * {@code finance}, {@code email}, {@code sql}, {@code hpo}; default {@code arithmetic, finance, sql}). The email suite
 * indexes the mbox files, maildirs or CSV files in {@code toolcoach.tools.email.mailboxes} (none by default); the hpo
 * suite reads its datasets from {@code toolcoach.tools.hpo.data-dir}. Before the actor system starts the node checks
 * the settings (an unknown suite, email without mailboxes, hpo without its datasets, a missing or unreadable mailbox,
 * an executor limit out of range: one line, exit 2) and opens every suite (a mailbox that cannot be indexed:
 * one line, exit 3), so a node is never up without a suite it was told to host.
 *
 * <p>Annotated tool classes ({@code toolcoach.tools.classes.<name> = "com.acme.BookingTools"}, LangChain4j's
 * <code>&#64;Tool</code> or ToolCoach's <code>&#64;ToolMethod</code>) are suites too: {@code ToolClassSuite} (tools,
 * {@code annotated}) loads the class by name from the node's class path; {@code checkHostable} checks it without
 * running its code (concrete, public no-argument constructor, an annotated method, a name no other suite has) and
 * {@code HostedSuites} makes one instance and reads its tools with {@code AnnotatedTools}. MCP servers
 * ({@code toolcoach.tools.mcp.servers.<name>}) are suites too: see {@code dev.toolcoach.tools.mcp}. Approved skills
 * join their suite at every poll of {@code toolcoach.tools.skills { dir, poll-interval }}
 * ({@code ApprovedSkills.refresh}, {@code ToolExecutor.replaceSuite}; see {@code dev.toolcoach.tools.skills}); a skill
 * definition that cannot be used stops the node from starting here.
 *
 * <p><b>The server</b> {@code ToolServerActor} owns one {@code ToolExecutor} (modules/tools,
 * {@code dev.toolcoach.tools.exec}) with the limits in {@code toolcoach.tools.executor} (8 concurrent calls, 256
 * queued, 10 s per call, 16,000-character output cap, 10 min idle trajectories, 8 abandoned threads).
 * {@code ExecuteToolCalls(trajectoryId, calls, replyTo)} runs the turn's calls concurrently on the executor's pool,
 * never on the actor's thread, and the completing stage answers {@code ToolCallResults} (one {@code ToolResult} per
 * call, in call order) directly, so even the UNAVAILABLE answers of a server that is stopping arrive. Results that add
 * up past one Artery frame are cut to an equal share each, or, should even that not fit, become error results
 * ({@code FrameFit}; counted on {@code toolcoach_messages_oversized_total}). {@code ReleaseTrajectory} drops
 * per-trajectory state; {@code GetToolSpecs} answers the suite's {@code ToolSpec}s. Stopping the actor closes the
 * executor and the suite's resources (index, database). All tool messages are CBOR: arguments and structured results
 * are JSON-shaped values.
 *
 * <p>{@code toolcoach.tools.added-latency { min, max }} (off by default: max = 0) holds each call's answer back by a
 * latency drawn per call log-uniformly between min and max, without holding a thread: slow remote tools (web APIs,
 * databases) for benchmarks of tool-latency-bound rollouts ({@code bench.cluster.ClusterScalingBench}). The executor's
 * latency metrics and each {@code ToolResult}'s latency do not include it.
 *
 * <p>Tool metrics on {@code /metrics} of a tool node, read from the executors at scrape time:
 * {@code toolcoach_tool_calls_total{suite,tool,status}}, {@code toolcoach_tool_call_latency_seconds{suite,tool}}
 * (histogram), {@code toolcoach_tool_cpu_seconds_total{suite,tool}} (CPU time of the calls' threads in the tool),
 * {@code toolcoach_tool_calls_running{suite}}, {@code toolcoach_tool_calls_queued{suite}},
 * {@code toolcoach_tool_trajectories_open{suite}}, {@code toolcoach_tool_threads_abandoned{suite}}.
 */
package dev.toolcoach.cluster.toolserver;
