package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/** The learner holds the trace of this rollout. */
public record TraceAck(String rolloutId) implements CborSerializable {
    public TraceAck {
        Objects.requireNonNull(rolloutId, "rolloutId");
    }
}
