package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/** From the learner: it holds this rollout's trace, so the coach counts the rollout done. */
public record RolloutReceived(String rolloutId) implements CoachCommand, CborSerializable {
    public RolloutReceived {
        Objects.requireNonNull(rolloutId, "rolloutId");
    }
}
