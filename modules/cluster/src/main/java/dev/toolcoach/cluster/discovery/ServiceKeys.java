package dev.toolcoach.cluster.discovery;

import akka.actor.typed.receptionist.ServiceKey;
import dev.toolcoach.cluster.protocol.AthleteCommand;
import dev.toolcoach.cluster.protocol.JobCommand;
import dev.toolcoach.cluster.protocol.ToolServerCommand;

/** The Receptionist keys ToolCoach services register under: all athletes, the running job, and one key per tool suite. */
public final class ServiceKeys {

    public static final ServiceKey<AthleteCommand> ATHLETES = ServiceKey.create(AthleteCommand.class, "toolcoach-athletes");

    /** The running training job's announcer: athlete nodes find the job, and learn that it ended, through it. */
    public static final ServiceKey<JobCommand> JOB = ServiceKey.create(JobCommand.class, "toolcoach-job");

    private static final String TOOL_SUITE_PREFIX = "toolcoach-tools-";

    private ServiceKeys() {
    }

    public static ServiceKey<ToolServerCommand> toolSuite(String suite) {
        if (suite == null || suite.isBlank()) {
            throw new IllegalArgumentException("tool suite name is empty");
        }
        return ServiceKey.create(ToolServerCommand.class, TOOL_SUITE_PREFIX + suite);
    }
}
