package dev.toolcoach.cluster.node;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.SpawnProtocol;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Join;
import akka.management.cluster.bootstrap.ClusterBootstrap;
import com.typesafe.config.Config;
import dev.toolcoach.cluster.management.ManagementServer;
import dev.toolcoach.cluster.toolserver.HostedSuites;
import dev.toolcoach.tools.BuiltinSuites;
import dev.toolcoach.tools.codeact.CodeActEnvironment;

import java.time.Duration;
import java.util.List;

/** Starts a node: its actor system with the role actors, the management HTTP server, and the cluster join. */
public final class NodeLauncher {

    private static final Duration MANAGEMENT_START_TIMEOUT = Duration.ofSeconds(30);

    private NodeLauncher() {
    }

    /** Starts the node and returns its running actor system; nothing is left running when it throws. */
    public static ActorSystem<SpawnProtocol.Command> start(Config config, NodeSettings settings) {
        CodeActEnvironment.configure(settings.codeAct().python(), settings.codeAct().limits());
        PortCheck.ensureFree(settings.host(), settings.port(), "cluster port");
        PortCheck.ensureFree(settings.managementHost(), settings.managementPort(), "management port");
        List<BuiltinSuites.Hosted> suites = settings.has(NodeRole.TOOL) ? HostedSuites.open(settings.tools()) : List.of();
        ActorSystem<SpawnProtocol.Command> system;
        try {
            system = ActorSystem.create(NodeGuardian.create(settings, suites), NodeConfigLoader.SYSTEM_NAME, config);
        } catch (RuntimeException e) { // e.g. the port was taken between the check and the bind
            HostedSuites.closeAll(suites);
            throw new NodeStartException("cannot start the actor system on " + settings.host() + ":" + settings.port()
                    + ": " + rootMessage(e));
        }
        try {
            startManagement(system, settings);
        } catch (NodeStartException e) {
            system.terminate();
            throw e;
        }
        join(system, settings);
        return system;
    }

    private static void startManagement(ActorSystem<?> system, NodeSettings settings) {
        try {
            ManagementServer.get(system).start(MANAGEMENT_START_TIMEOUT);
        } catch (IllegalStateException e) {
            throw new NodeStartException("cannot start management HTTP on " + settings.managementHost() + ":"
                    + settings.managementPort() + ": " + rootMessage(e));
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private static void join(ActorSystem<?> system, NodeSettings settings) {
        if (!settings.seeds().isEmpty()) {
            return; // Akka joins the configured seed nodes by itself
        }
        if (settings.bootstrap()) {
            ClusterBootstrap.get(system).start();
        } else {
            // a coach without seeds forms a new cluster on its own
            Cluster cluster = Cluster.get(system);
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
        }
    }
}
