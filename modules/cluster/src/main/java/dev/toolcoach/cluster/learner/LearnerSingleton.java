package dev.toolcoach.cluster.learner;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import dev.toolcoach.cluster.job.JobSingleton;
import dev.toolcoach.cluster.node.NodeRole;
import dev.toolcoach.cluster.protocol.LearnerProtocol;

/** Runs a job's learner once in the cluster, on the oldest node with role {@code learner} (the node that owns the device). */
public final class LearnerSingleton {

    private LearnerSingleton() {
    }

    /** Starts the job's learner where this is the oldest learner node; returns a proxy that reaches it wherever it runs. */
    public static ActorRef<LearnerProtocol.Command> init(ActorSystem<?> system, String jobId, Behavior<LearnerProtocol.Command> learner) {
        return JobSingleton.init(system, NodeRole.LEARNER, "learner", jobId, learner);
    }

    /** A proxy to the job's learner for a node without role {@code learner}. */
    public static ActorRef<LearnerProtocol.Command> proxy(ActorSystem<?> system, String jobId) {
        return JobSingleton.proxy(system, NodeRole.LEARNER, "learner", jobId);
    }
}
