package dev.toolcoach.cluster.protocol;

import java.util.Objects;

/** The trajectory is over: the server drops its per-trajectory tool state (idle state also expires on its own). */
public record ReleaseTrajectory(String trajectoryId) implements ToolServerCommand, CborSerializable {
    public ReleaseTrajectory {
        Objects.requireNonNull(trajectoryId, "trajectoryId");
    }
}
