/**
 * A node: configuration, the actor system, joining, readiness, and the run command the three node programs share.
 * <ul>
 *   <li>{@code NodeConfigLoader} (config layers), {@code NodeSettings} (checked settings), {@code NodeOptions} (picocli
 *       mixin), {@code NodeRunCommand} (the shared run command), {@code NodeCli} (one-line errors),
 *       {@code NodeLauncher} (system, management, join).</li>
 *   <li>{@code NodeGuardian}: spawns the role actors, then serves {@code SpawnProtocol}.</li>
 *   <li>{@code JobNode}: the node a job's actors are spawned on: a new one with every role, or an attached coach
 *       node.</li>
 *   <li>{@code NodeReadiness} + {@code ActorsStartedCheck} (readiness: {@code /ready} answers 200 only when the member
 *       is {@code Up}, {@code ready-states = ["Up"]}, and the node guardian has started its actors), {@code PortCheck},
 *       {@code SeedAddress}.</li>
 *   <li>{@code CodeActSettings}: a node's {@code toolcoach.code-act} (part of {@code NodeSettings};
 *       {@code NodeLauncher} hands them to {@code CodeActEnvironment.configure}, and the sandbox is made on first
 *       use).</li>
 *   <li>{@code ArteryTls}: {@code toolcoach.cluster.tls}, one switch that sets {@code transport = tls-tcp}, TLS 1.3,
 *       mutual authentication, key and trust store; hostname verification is off because pods get addresses at run
 *       time: the trust store is the boundary. Off for local runs on loopback.</li>
 * </ul>
 * <table class="striped">
 * <caption>Programs and roles</caption>
 * <tr><th>program</th><th>default roles</th><th>actors it starts</th></tr>
 * <tr><td>{@code coach-node}</td><td>{@code coach}, {@code learner}</td><td>{@code service-registry}; the job
 *     controller (with its management route) runs submitted jobs, whose coach, learner, publisher and announcer it
 *     spawns</td></tr>
 * <tr><td>{@code athlete-node}</td><td>{@code athlete}</td><td>{@code athletes} (the {@code AthleteHost}:
 *     {@code toolcoach.athlete.actors-per-node} athletes, default 2; {@code deploy/conf/athlete.conf} says 8)</td></tr>
 * <tr><td>{@code tool-node}</td><td>{@code tool}</td><td>{@code tools-<suite>} for each of
 *     {@code toolcoach.tools.suites}, {@code toolcoach.tools.classes} and {@code toolcoach.tools.mcp.servers}</td></tr>
 * </table>
 *
 * <p>All three mains are thin subclasses of {@code NodeRunCommand}.
 *
 * <p><b>Configuration layers</b> Highest first: command line ({@code --config --role --host --port --seed
 * --management-host --management-port --athletes --tool-suite}), JVM system properties, {@code TOOLCOACH_*} environment
 * variables, the {@code --config} HOCON file, the program's default roles, {@code toolcoach-node.conf} (node runtime
 * defaults), and the libraries' {@code reference.conf}. The cluster module's {@code reference.conf} only adds new keys
 * (serializer bindings, management route and readiness check, {@code toolcoach.*}): a fat jar concatenates every
 * {@code reference.conf}, so overriding a library key there is unreliable. Defaults bind remoting (25520) and
 * management (8558) to 127.0.0.1. The actor system is {@code ToolCoach}. The device of a node's models
 * ({@code toolcoach.device}/{@code toolcoach.precision}) is checked by {@code NodeRunCommand} at start and read where a
 * model is loaded ({@code NodeSettings.computeDevice(config)}).
 *
 * <p><b>Joining, errors, stopping</b> Joining: seed nodes when given; else Cluster Bootstrap when
 * {@code toolcoach.cluster.bootstrap = on} (Kubernetes); else a coach joins itself and forms a new cluster. A node
 * without the coach role and without seeds or bootstrap is a configuration error.
 *
 * <p>Bad input never gives a stack trace: an unknown role, a malformed seed address, a taken port, an unreadable or
 * unparsable config file, a malformed option each print one line {@code <program>: <problem>} on stderr and exit 2
 * (configuration) or 3 (start failure).
 *
 * <p>Stopping: SIGTERM runs Akka's coordinated shutdown (JVM shutdown hook): the node leaves the cluster (Leaving →
 * Exiting → Removed), stops its actors and exits 0. A node the cluster downs runs the same shutdown and exits.
 *
 * <p><b>Split-brain resolver: keep-oldest, by role coach</b> ({@code toolcoach-node.conf})
 * {@code akka.cluster.split-brain-resolver.active-strategy = keep-oldest} with {@code keep-oldest.role = "coach"} and
 * {@code down-if-alone = off}. Why: all job state (dataset cursor, group accounting, learner, optimizer) lives on the
 * coach node, so the side of a partition that holds the coach is the only side that can do useful work. Keep-majority
 * would down the coach whenever athletes outnumber it on the other side — ending the job while leaving athletes with
 * nobody to work for. Down-all-when-unstable would stop the job on every flaky network episode. With keep-oldest by
 * role coach, athletes cut off from the coach are downed (their rollouts are re-dispatched by the coach's deadlines)
 * and restart to rejoin. {@code down-if-alone = off} keeps the coach even when it is alone on its side.
 * {@code stable-after = 10s}.
 *
 * <p><b>Where a job's actors run</b> A cluster singleton runs on the oldest member with its role, whether or not that
 * member started the singleton's manager: a job's coach and learner therefore run on the coach node itself (the oldest
 * coach), never on a second JVM that joins later with the same roles. {@code JobNode.allRoles} (embedded): a new node
 * in this JVM with every role, remoting and management on free ports of 127.0.0.1, forming its own one-node cluster,
 * whose {@code NodeGuardian} starts tool servers for the job's suites and an {@code AthleteHost};
 * {@code JobNode.allRolesBut} leaves a role out (a job without suites starts no tool role); {@code JobNode.attach}: the
 * coach node's own system.
 */
package dev.toolcoach.cluster.node;
