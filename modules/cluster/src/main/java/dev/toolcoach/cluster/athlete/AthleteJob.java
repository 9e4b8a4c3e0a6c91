package dev.toolcoach.cluster.athlete;

import akka.actor.typed.ActorRef;
import dev.toolcoach.cluster.protocol.CoachProtocol;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;

import java.util.Objects;

/**
 * What a working athlete needs: where work comes from, where traces go, and how to run a rollout.
 *
 * @param coach   asked for one rollout at a time (in a cluster, the coach singleton's proxy)
 * @param learner receives the finished traces and acks each
 */
public record AthleteJob(ActorRef<CoachProtocol.Command> coach, ActorRef<TraceDelivery> learner, RolloutRunner runner,
                         DeliverySettings delivery) {
    public AthleteJob {
        Objects.requireNonNull(coach, "coach");
        Objects.requireNonNull(learner, "learner");
        Objects.requireNonNull(runner, "runner");
        Objects.requireNonNull(delivery, "delivery");
    }
}
