/**
 * The agent's {@code ToolEnvironment} over the cluster's tool servers.
 * <ul>
 *   <li>{@code ClusterToolEnvironment}: the environment; {@code ToolServerWatcher}: Receptionist subscription, spec
 *       fetching; {@code ToolServerView}/{@code ToolServerListing}: current servers, routing, in-flight requests;
 *       {@code ClusterToolSettings}.</li>
 * </ul>
 *
 * <p>{@code ClusterToolEnvironment.connect(system, suites, settings)} (athlete side) starts a {@code ToolServerWatcher}
 * that subscribes to the suites' keys, keeps the current listing, and fetches each suite's specs once; it completes
 * when every suite has a server and its specs (else fails after {@code client.connect-timeout}, naming the suites
 * without a server). {@code execute} sends one {@code ExecuteToolCalls} per suite and turn by ask with
 * {@code client.call-deadline} (15 s, longer than the server's own 10 s call timeout). Trajectories are spread over a
 * suite's servers by the hash of their id over the servers in address order, so a trajectory's stateful calls stay on
 * one server while the listing holds. Failures become error results the model sees, never exceptions or hangs: no
 * server listed → UNAVAILABLE at once; the server drops out of the listing while a request waits → UNAVAILABLE at
 * once; no answer by the deadline → TIMEOUT. {@code release} tells every server of the environment's suites.
 */
package dev.toolcoach.cluster.tools;
