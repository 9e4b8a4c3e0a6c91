package dev.toolcoach.cluster.coach;

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
import dev.toolcoach.cluster.protocol.CoachCommand;

/** Runs the coach once in the cluster, on the oldest node with role {@code coach}. */
public final class CoachSingleton {

    private CoachSingleton() {
    }

    /**
     * Starts the singleton manager on this node (it runs {@code coach} only where it is the oldest
     * coach node) and returns a proxy that reaches the coach wherever it runs. Call on every node that
     * talks to the coach; nodes without role {@code coach} only get the proxy.
     */
    public static ActorRef<CoachCommand> init(ActorSystem<?> system, String jobId, Behavior<CoachCommand> coach) {
        ClusterSingletonSettings settings = ClusterSingletonSettings.create(system).withRole(NodeRole.COACH.roleName());
        return ClusterSingleton.get(system).init(SingletonActor.of(coach, name(jobId)).withSettings(settings));
    }

    /**
     * A proxy to the coach for a node without role {@code coach} (an athlete node): the singleton never runs
     * there, so the behavior handed to the manager is never started.
     */
    public static ActorRef<CoachCommand> proxy(ActorSystem<?> system, String jobId) {
        return init(system, jobId, Behaviors.empty());
    }

    /** One singleton per job, so a long-lived node can run job after job (an ended job's coach stays idle). */
    static String name(String jobId) {
        return "coach-" + URLEncoder.encode(jobId, StandardCharsets.UTF_8);
    }
}
