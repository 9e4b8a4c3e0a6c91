package dev.toolcoach.cluster.node;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import dev.toolcoach.cluster.athlete.AthleteActor;
import dev.toolcoach.cluster.discovery.ServiceRegistry;
import dev.toolcoach.cluster.toolserver.ToolServerActor;

/** The root actor of a node: starts the actors of each of the node's roles, then marks the node's actors started. */
public final class NodeGuardian {

    private NodeGuardian() {
    }

    public static Behavior<Void> create(NodeSettings settings) {
        return Behaviors.setup(context -> {
            if (settings.has(NodeRole.COACH)) {
                context.spawn(ServiceRegistry.create(settings.toolSuites()), "service-registry");
            }
            if (settings.has(NodeRole.ATHLETE)) {
                for (int i = 1; i <= settings.athleteActors(); i++) {
                    context.spawn(AthleteActor.create(), "athlete-" + i);
                }
            }
            if (settings.has(NodeRole.TOOL)) {
                for (String suite : settings.toolSuites()) {
                    context.spawn(ToolServerActor.create(suite), "tools-" + suite);
                }
            }
            NodeReadiness.get(Adapter.toClassic(context.getSystem())).markActorsStarted();
            return Behaviors.empty();
        });
    }
}
