package dev.toolcoach.cluster.node;

import akka.actor.typed.Behavior;
import akka.actor.typed.SpawnProtocol;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import dev.toolcoach.cluster.athlete.DeliverySettings;
import dev.toolcoach.cluster.job.AthleteHost;
import dev.toolcoach.cluster.tools.ClusterToolSettings;
import dev.toolcoach.cluster.discovery.ServiceRegistry;
import dev.toolcoach.cluster.toolserver.ToolServerActor;
import dev.toolcoach.tools.BuiltinSuites;

import java.util.List;

/**
 * The root actor of a node: starts the actors of each of the node's roles, marks the node's actors started,
 * then spawns further top-level actors on request ({@link SpawnProtocol}).
 */
public final class NodeGuardian {

    private NodeGuardian() {
    }

    /** @param hostedSuites the tool suites this node hosts, opened beforehand; each server owns and closes its suite */
    public static Behavior<SpawnProtocol.Command> create(NodeSettings settings, List<BuiltinSuites.Hosted> hostedSuites) {
        return Behaviors.setup(context -> {
            if (settings.has(NodeRole.COACH)) {
                context.spawn(ServiceRegistry.create(settings.toolSuites()), "service-registry");
            }
            if (settings.has(NodeRole.ATHLETE)) {
                context.spawn(AthleteHost.create(settings.athleteActors(),
                        ClusterToolSettings.fromConfig(context.getSystem().settings().config()), DeliverySettings.defaults()), "athletes");
            }
            for (BuiltinSuites.Hosted suite : hostedSuites) {
                context.spawn(ToolServerActor.create(suite, settings.tools()), "tools-" + suite.suite().name());
            }
            NodeReadiness.get(Adapter.toClassic(context.getSystem())).markActorsStarted();
            // a job runner on this node spawns the job's actors (coach, learner, ...) from outside
            return SpawnProtocol.create();
        });
    }
}
