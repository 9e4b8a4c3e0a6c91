package dev.toolcoach.cluster.learner;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.typed.ClusterSingleton;
import akka.cluster.typed.ClusterSingletonSettings;
import akka.cluster.typed.SingletonActor;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.protocol.LearnerCommand;

/** Runs the learner once in the cluster, on the oldest node with role {@code learner} (the node that owns the device). */
public final class LearnerSingleton {

    /** The singleton's name; proxies on every node find it by it. */
    public static final String NAME = "learner";

    private LearnerSingleton() {
    }

    /** Starts the singleton manager on this node and returns a proxy that reaches the learner wherever it runs. */
    public static ActorRef<LearnerCommand> init(ActorSystem<?> system, Behavior<LearnerCommand> learner) {
        ClusterSingletonSettings settings = ClusterSingletonSettings.create(system).withRole(NodeRole.LEARNER.roleName());
        return ClusterSingleton.get(system).init(SingletonActor.of(learner, NAME).withSettings(settings));
    }

    /**
     * A proxy to the learner for a node without role {@code learner} (an athlete node): the singleton never runs
     * there, so the behavior handed to the manager is never started.
     */
    public static ActorRef<LearnerCommand> proxy(ActorSystem<?> system) {
        return init(system, Behaviors.empty());
    }
}
