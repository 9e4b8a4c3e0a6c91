package dev.toolcoach.cluster.learner;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.cluster.typed.ClusterSingleton;
import akka.cluster.typed.ClusterSingletonSettings;
import akka.cluster.typed.SingletonActor;
import dev.toolcoach.cluster.node.NodeRole;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import dev.toolcoach.cluster.protocol.LearnerCommand;

/** Runs the learner once in the cluster, on the oldest node with role {@code learner} (the node that owns the device). */
public final class LearnerSingleton {

    private LearnerSingleton() {
    }

    /** Starts the singleton manager on this node and returns a proxy that reaches the learner wherever it runs. */
    public static ActorRef<LearnerCommand> init(ActorSystem<?> system, String jobId, Behavior<LearnerCommand> learner) {
        ClusterSingletonSettings settings = ClusterSingletonSettings.create(system).withRole(NodeRole.LEARNER.roleName());
        return ClusterSingleton.get(system).init(SingletonActor.of(learner, name(jobId)).withSettings(settings));
    }

    /**
     * A proxy to the learner for a node without role {@code learner} (an athlete node): the singleton never runs
     * there, so the behavior handed to the manager is never started.
     */
    public static ActorRef<LearnerCommand> proxy(ActorSystem<?> system, String jobId) {
        return init(system, jobId, Behaviors.empty());
    }

    /** One singleton per job, so a long-lived node can run job after job (an ended job's learner stays idle). */
    static String name(String jobId) {
        return "learner-" + URLEncoder.encode(jobId, StandardCharsets.UTF_8);
    }
}
