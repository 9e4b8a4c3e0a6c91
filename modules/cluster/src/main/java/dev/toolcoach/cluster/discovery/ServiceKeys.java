package dev.toolcoach.cluster.discovery;

import akka.actor.typed.receptionist.ServiceKey;
import dev.toolcoach.cluster.protocol.AthleteProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol;
import dev.toolcoach.cluster.protocol.ToolServerProtocol;

/** The Receptionist keys ToolCoach services register under: all athletes, the running job, and one key per tool suite. */
public final class ServiceKeys {

    public static final ServiceKey<AthleteProtocol.Command> ATHLETES = ServiceKey.create(AthleteProtocol.Command.class, "toolcoach-athletes");

    /** The running training job's announcer: athlete nodes find the job, and learn that it ended, through it. */
    public static final ServiceKey<JobProtocol.Command> JOB = ServiceKey.create(JobProtocol.Command.class, "toolcoach-job");

    private static final String TOOL_SUITE_PREFIX = "toolcoach-tools-";

    private ServiceKeys() {
    }

    public static ServiceKey<ToolServerProtocol.Command> toolSuite(String suite) {
        if (suite == null || suite.isBlank()) {
            throw new IllegalArgumentException("tool suite name is empty");
        }
        return ServiceKey.create(ToolServerProtocol.Command.class, TOOL_SUITE_PREFIX + suite);
    }
}
