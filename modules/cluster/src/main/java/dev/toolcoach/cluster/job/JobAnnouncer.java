package dev.toolcoach.cluster.job;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import dev.toolcoach.cluster.discovery.ServiceKeys;
import dev.toolcoach.cluster.protocol.JobProtocol.GetJob;
import dev.toolcoach.cluster.protocol.JobProtocol;
import dev.toolcoach.cluster.protocol.JobProtocol.JobSpec;

/**
 * Makes a running job known to athlete nodes: registered under {@link ServiceKeys#JOB} for as long as the
 * job runs, it answers {@link GetJob} with the job's spec. Athlete nodes that join mid-run find it the same
 * way; when the job ends the announcer stops, the registration goes, and athlete nodes release the job.
 */
public final class JobAnnouncer {

    /** The job is over: the announcer stops and its registration goes, so athlete nodes release the job. */
    public enum End implements JobProtocol.Local, NoSerializationVerificationNeeded { INSTANCE }

    private JobAnnouncer() {
    }

    public static Behavior<JobProtocol.Command> create(JobSpec spec) {
        return Behaviors.setup(context -> {
            context.getSystem().receptionist().tell(Receptionist.register(ServiceKeys.JOB, context.getSelf()));
            return Behaviors.receive(JobProtocol.Command.class)
                    .onMessage(GetJob.class, get -> {
                        get.replyTo().tell(spec);
                        return Behaviors.same();
                    })
                    .onMessageEquals(End.INSTANCE, Behaviors::stopped)
                    .build();
        });
    }
}
