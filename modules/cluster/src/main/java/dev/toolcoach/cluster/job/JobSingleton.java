package dev.toolcoach.cluster.job;

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

/**
 * One of a job's cluster singletons (its coach, its learner): run once in the cluster, on the oldest node with the
 * role, and named per job, so a long-lived node runs job after job (an ended job's singleton stays, idle).
 */
public final class JobSingleton {

    private JobSingleton() {
    }

    /**
     * Starts the singleton manager on this node (it runs {@code behavior} only where this is the oldest node with
     * {@code role}) and returns a proxy that reaches the singleton wherever it runs.
     */
    public static <T> ActorRef<T> init(ActorSystem<?> system, NodeRole role, String kind, String jobId, Behavior<T> behavior) {
        ClusterSingletonSettings settings = ClusterSingletonSettings.create(system).withRole(role.roleName());
        String name = kind + "-" + URLEncoder.encode(jobId, StandardCharsets.UTF_8);
        return ClusterSingleton.get(system).init(SingletonActor.of(behavior, name).withSettings(settings));
    }

    /**
     * A proxy for a node without the role (an athlete node): the singleton never runs there, so the behavior handed
     * to the manager is never started. On a node with the role, call {@link #init} with the real behavior first.
     */
    public static <T> ActorRef<T> proxy(ActorSystem<?> system, NodeRole role, String kind, String jobId) {
        return init(system, role, kind, jobId, Behaviors.empty());
    }
}
