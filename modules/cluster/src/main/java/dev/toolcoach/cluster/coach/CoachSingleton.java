package dev.toolcoach.cluster.coach;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import dev.toolcoach.cluster.job.JobSingleton;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.protocol.CoachProtocol;

/** Runs a job's coach once in the cluster, on the oldest node with role {@code coach}. */
public final class CoachSingleton {

    private CoachSingleton() {
    }

    /** Starts the job's coach where this is the oldest coach node; returns a proxy that reaches it wherever it runs. */
    public static ActorRef<CoachProtocol.Command> init(ActorSystem<?> system, String jobId, Behavior<CoachProtocol.Command> coach) {
        return JobSingleton.init(system, NodeRole.COACH, "coach", jobId, coach);
    }

    /** A proxy to the job's coach for a node without role {@code coach}. */
    public static ActorRef<CoachProtocol.Command> proxy(ActorSystem<?> system, String jobId) {
        return JobSingleton.proxy(system, NodeRole.COACH, "coach", jobId);
    }
}
