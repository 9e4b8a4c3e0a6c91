package dev.toolcoach.cluster.node;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import dev.toolcoach.cluster.athlete.AthleteActor;
import dev.toolcoach.cluster.discovery.ServiceRegistry;
import dev.toolcoach.cluster.toolserver.ToolServerActor;
import dev.toolcoach.tools.BuiltinSuites;

import java.util.List;

/** The root actor of a node: starts the actors of each of the node's roles, then marks the node's actors started. */
public final class NodeGuardian {

    private NodeGuardian() {
    }

    /** @param hostedSuites the tool suites this node hosts, opened beforehand; each server owns and closes its suite */
    public static Behavior<Void> create(NodeSettings settings, List<BuiltinSuites.Hosted> hostedSuites) {
        return Behaviors.setup(context -> {
            if (settings.has(NodeRole.COACH)) {
                context.spawn(ServiceRegistry.create(settings.toolSuites()), "service-registry");
            }
            if (settings.has(NodeRole.ATHLETE)) {
                for (int i = 1; i <= settings.athleteActors(); i++) {
                    context.spawn(AthleteActor.create(), "athlete-" + i);
                }
            }
            for (BuiltinSuites.Hosted suite : hostedSuites) {
                context.spawn(ToolServerActor.create(suite, settings.tools().executor()), "tools-" + suite.suite().name());
            }
            NodeReadiness.get(Adapter.toClassic(context.getSystem())).markActorsStarted();
            return Behaviors.empty();
        });
    }
}
