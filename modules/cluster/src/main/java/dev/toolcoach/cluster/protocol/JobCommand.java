package dev.toolcoach.cluster.protocol;

/** Everything a job announcer accepts: {@link GetJob} from athlete nodes, and the job runner's local stop. */
public interface JobCommand {
}
