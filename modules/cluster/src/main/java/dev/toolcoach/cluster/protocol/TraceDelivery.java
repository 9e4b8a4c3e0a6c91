package dev.toolcoach.cluster.protocol;

import akka.actor.typed.ActorRef;
import dev.toolcoach.trace.Trace;

import java.util.Objects;

/**
 * A finished rollout's trace on its way from an athlete to the learner. Goes through Kryo because the
 * token arrays dominate its size; the learner answers with a {@link TraceAck} once it holds the trace,
 * which is when the rollout counts as done.
 */
public record TraceDelivery(Trace trace, ActorRef<TraceAck> replyTo) implements LearnerCommand, KryoSerializable {
    public TraceDelivery {
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
