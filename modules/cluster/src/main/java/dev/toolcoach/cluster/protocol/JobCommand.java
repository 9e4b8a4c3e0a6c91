package dev.toolcoach.cluster.protocol;

/** Everything a job announcer accepts. */
public sealed interface JobCommand permits GetJob {
}
